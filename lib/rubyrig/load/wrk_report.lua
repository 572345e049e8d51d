-- Loaded into wrk by rubyrig (-s): after the run, done() writes wrk's own summary as one JSON object to
-- the file named by RUBYRIG_WRK_JSON. Times are in microseconds, as wrk keeps them. It defines no
-- request() or response() hook, so wrk keeps its fast path and measures exactly as without a script.

local function number(x)
  if x ~= x or x == math.huge or x == -math.huge then
    return "null"
  end
  return string.format("%.17g", x)
end

function done(summary, latency, requests)
  local path = os.getenv("RUBYRIG_WRK_JSON")
  if path == nil or path == "" then
    return
  end
  local fields = {
    {"requests", summary.requests},
    {"duration_us", summary.duration},
    {"bytes", summary.bytes},
    {"errors_connect", summary.errors.connect},
    {"errors_read", summary.errors.read},
    {"errors_write", summary.errors.write},
    {"errors_timeout", summary.errors.timeout},
    {"errors_status", summary.errors.status},
    {"latency_min_us", latency.min},
    {"latency_mean_us", latency.mean},
    {"latency_stdev_us", latency.stdev},
    {"latency_max_us", latency.max},
    {"latency_p50_us", latency:percentile(50)},
    {"latency_p90_us", latency:percentile(90)},
    {"latency_p99_us", latency:percentile(99)},
    {"latency_p999_us", latency:percentile(99.9)}
  }
  local parts = {}
  for i, pair in ipairs(fields) do
    parts[i] = string.format("%q:%s", pair[1], number(pair[2]))
  end
  local file = assert(io.open(path, "w"))
  file:write("{" .. table.concat(parts, ",") .. "}\n")
  file:close()
end

-- Loaded into wrk by rubyrig (-s): after the run, done() writes wrk's own summary as one JSON object to
-- the file named by RUBYRIG_WRK_JSON. Times are in microseconds, as wrk keeps them. It defines no
-- request() or response() hook, so wrk keeps its fast path and measures exactly as without a script.
-- It also counts the samples wrk synthesized (latency_synthesized_count): before done(), wrk 4 corrects
-- its latency histogram for coordinated omission (stats_correct in wrk.c), adding for every recorded
-- latency n of at least twice the expected interval e (the run's duration over the responses per
-- connection, RUBYRIG_WRK_CONNECTIONS) one sample at each of n - e, n - 2e, ... above e.

local function number(x)
  if x ~= x or x == math.huge or x == -math.huge then
    return "null"
  end
  return string.format("%.17g", x)
end

-- The latency histogram as {microseconds = samples}, its values from the largest down, and its total.
local function histogram(latency)
  local bins, values, total = {}, {}, 0
  for i = 1, #latency do
    local value, count = latency(i)
    bins[value] = count
    values[#values + 1] = value
    total = total + count
  end
  table.sort(values, function(a, b) return a > b end)
  return bins, values, total
end

-- The samples the correction added, undone from the top: what a bin holds beyond what the bins above
-- it added was recorded, and adds one sample at each step of e below it.
local function synthesized(bins, values, summary)
  local connections = tonumber(os.getenv("RUBYRIG_WRK_CONNECTIONS") or "")
  if connections == nil then
    return nil
  end
  local per_connection = math.floor(summary.requests / connections)
  if per_connection == 0 then
    return 0
  end
  local interval = math.floor(summary.duration / per_connection)
  local added, into = 0, {}
  for _, n in ipairs(values) do
    local recorded = bins[n] - (into[n] or 0)
    if n >= 2 * interval then
      local m = n - interval
      while m > interval do
        into[m] = (into[m] or 0) + recorded
        added = added + recorded
        m = m - interval
      end
    end
  end
  return added
end

function done(summary, latency, requests)
  local path = os.getenv("RUBYRIG_WRK_JSON")
  if path == nil or path == "" then
    return
  end
  local bins, values, total = histogram(latency)
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
    {"latency_p95_us", latency:percentile(95)},
    {"latency_p99_us", latency:percentile(99)},
    {"latency_p999_us", latency:percentile(99.9)},
    {"latency_sample_count", total},
    {"latency_synthesized_count", synthesized(bins, values, summary)}
  }
  local parts = {}
  for i, pair in ipairs(fields) do
    parts[i] = string.format("%q:%s", pair[1], pair[2] == nil and "null" or number(pair[2]))
  end
  local file = assert(io.open(path, "w"))
  file:write("{" .. table.concat(parts, ",") .. "}\n")
  file:close()
end

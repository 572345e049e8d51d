# The server's own account of the measured run: Puma's request log (`log_requests`, one line per request:
# "HOST - USER [TIME] \"METHOD PATH HTTP/1.1\" STATUS SIZE SECONDS") read from the byte range written
# during the run, each line attributed to its traffic endpoint, and per endpoint the count, the share
# of all requests, the errors (status 400 or more) and the service time percentiles, as named metrics
# (endpoint.NAME.METRIC) beside the batch's totals.
module Rubyrig
  module Kinds
    module Http
      class Traffic
        module RequestLog
          LINE = /"([A-Z]+) (\S+) [^"]*" (\d{3}) \S+ (\d+(?:\.\d+)?)\s*\z/
          # One logged request: its method, path, status and the seconds Puma spent on it.
          Entry = Struct.new(:method, :path, :status, :service_s, keyword_init: true)

          module_function

          # The entries of the lines of `text` in Puma's request log format (other lines are skipped).
          def parse(text)
            text.each_line.filter_map do |line|
              m = line.match(LINE) or next
              Entry.new(method: m[1], path: m[2], status: m[3].to_i, service_s: m[4].to_f).freeze
            end
          end

          # The bytes of `path` from offset `from` to `to` (as read when the run started and ended).
          def slice(path, from, to)
            return "" unless File.file?(path)
            File.open(path, "rb") do |file|
              file.seek(from)
              file.read([to - from, 0].max).to_s.force_encoding(Encoding::UTF_8).scrub
            end
          end

          # Named metrics of the entries: per endpoint of `traffic`, and the batch's service times.
          def metrics(entries, traffic, measured_s:)
            groups = entries.group_by { |e| traffic.endpoint(e.method, e.path) }
            total = entries.size
            metrics = (traffic.endpoint_names | groups.keys).each_with_object({}) do |name, out|
              group = groups.fetch(name, [])
              out.merge!(endpoint(name, group, total, measured_s))
            end
            metrics.merge(service("", entries))
          end

          def endpoint(name, group, total, measured_s)
            prefix = "endpoint.#{name}."
            {
              "#{prefix}request_count" => group.size,
              "#{prefix}share" => total.positive? ? group.size.fdiv(total) : nil,
              "#{prefix}error_count" => group.count { |e| e.status >= 400 },
              "#{prefix}requests_per_s" => measured_s.positive? ? group.size / measured_s : nil
            }.merge(service(prefix, group)).compact
          end

          # service_mean_s, service_p50_s and service_p99_s of the entries (none without entries).
          def service(prefix, group)
            return {} if group.empty?
            times = group.map(&:service_s).sort
            {"#{prefix}service_mean_s" => times.sum / times.size, "#{prefix}service_p50_s" => percentile(times, 50),
             "#{prefix}service_p99_s" => percentile(times, 99)}
          end

          # The nearest-rank percentile of sorted values.
          def percentile(sorted, pct) = sorted[[(pct / 100.0 * sorted.size).ceil - 1, 0].max]
        end
      end
    end
  end
end

# A workload's `traffic:`: what simulated users send, as a weighted mix of requests, sessions (steps with
# think times and a cookie jar) or an access log replayed with its own mix (docs/traffic.md). Loaded
# from the experiment into plain data (run.json records it), and from that, for one batch, into the
# seeded sequence of requests or sessions a load generator's file holds and the endpoint of each line
# of the server's request log.
module Rubyrig
  module Kinds
    module Http
      class Traffic
        # Requests in one batch's cycle of a mix: the mix is kept to 1/SEQUENCE_SIZE.
        SEQUENCE_SIZE = 10_000
        # httperf reads at most 1000 sessions from a --wsesslog file.
        SESSION_TEMPLATES = 1000
        OTHER = "other"
        MIXES = %w[requests sessions access_log].freeze
        # The methods httperf's --wsesslog sends (no PATCH).
        HTTPERF_METHODS = %w[GET POST PUT DELETE HEAD OPTIONS].freeze
        # A batch's figures from the server's request log (per endpoint: RequestLog, named metrics).
        METRICS = [
          {name: "service_mean_s", unit: "s", higher_is_better: false, kind: :speed, label: "service time mean (server)"},
          {name: "service_p50_s", unit: "s", higher_is_better: false, kind: :speed, label: "service time p50 (server)"},
          {name: "service_p99_s", unit: "s", higher_is_better: false, kind: :speed, label: "service time p99 (server)"},
          {name: "queueing_mean_s", unit: "s", higher_is_better: false, kind: :speed, label: "queueing mean (latency - service)"},
          {name: "logged_request_count", unit: "", higher_is_better: true, kind: :resource, label: "requests in the server's log"}
        ].freeze

        # The `traffic:` of a workload entry (Experiment::Fields) as checked plain data, or nil.
        def self.load(fields)
          return nil if fields["traffic"].nil?
          Loader.new(fields.child(["traffic"], fields["traffic"])).load
        end

        # What the workload's load model and parameters cannot run, refused with the fix: what httperf
        # cannot send (check_httperf), and the connection modes that cannot run the traffic: sessions
        # keep one connection per simulated user, client-close sends one path.
        def self.check_params(data, options, params, fields)
          check_httperf(data, fields) if data.key?("sessions") || options["load_model"] == "open"
          return if options["load_model"] == "open"
          modes = Array(params["connection"])
          if data.key?("sessions")
            return if (modes - ["keepalive"]).empty?
            fields.fail(["traffic", "sessions"], "keep one connection per user, so they run with connection: keepalive only, " \
              "not #{(modes - ["keepalive"]).join(", ")}; drop the other connection modes from params", own_name: false)
          end
          return unless modes.include?("client-close")
          fields.fail(["traffic"], "runs with connection: keepalive or close (wrk), not client-close; drop client-close from params")
        end

        # httperf (sessions, the open loop) sends the same headers with every request, and no PATCH.
        def self.check_httperf(data, fields)
          steps = if data.key?("access_log")
            AccessLog.read(data["access_log"]).map { |c| {"method" => c.method, "headers" => {}} }
          else
            data.fetch("requests") { data["sessions"].flat_map { |s| s["steps"] }.reject { |s| s.key?("think_s") } }
          end
          if steps.map { |s| s["headers"] }.uniq.size > 1
            fields.fail(["traffic"], "gives different headers: in different requests, but httperf (which runs sessions and the open loop) " \
              "sends the same headers with every request: give every request the same headers: (or none)")
          end
          unsendable = steps.map { |s| s["method"] }.uniq - HTTPERF_METHODS
          return if unsendable.empty?
          fields.fail(["traffic"], "uses #{unsendable.join(", ")}, which httperf (which runs sessions and the open loop) cannot send; " \
            "use #{HTTPERF_METHODS.join(", ")} (e.g. a POST the app takes like a PATCH)")
        end

        # The load generator of a connection mode for a workload's options: httperf runs sessions.
        def self.generator_for(options, mode) = options["traffic"]&.key?("sessions") ? "httperf" : Load.for_mode(mode)

        # The traffic of a workload's options (plain data from load), with the workload's headers, or nil
        # when it has none.
        def self.from_options(options) = options["traffic"] && new(options["traffic"], headers: options["headers"])

        attr_reader :kind, :seed

        # headers: the workload's (Headers), under each request's own.
        def initialize(data, headers: nil)
          @data = data
          @headers = headers || {}
          @seed = data.fetch("seed", 0)
          @kind = MIXES.find { |key| data.key?(key) }
        end

        def requests = @requests ||= @data.fetch("requests").map { |r| Request.from_h(r) }

        def sessions = @sessions ||= @data.fetch("sessions").map { |s| Session.from_h(s) }

        def access_log_path = @data.fetch("access_log")

        def sessions? = kind == "sessions"

        # The generator of one round's batches: the same round sends the same sequence on every runtime.
        def random(round) = Random.new(@seed * 1_000_003 + round.to_i)

        # The requests of one batch in the order they are sent (filled, for a mix; the log's, replayed).
        def calls(round)
          return access_log_calls.map { |call| with_headers(call) } if kind == "access_log"
          rng = random(round)
          Sequence.weighted(requests, SEQUENCE_SIZE).map { |request| with_headers(request.fill(rng)) }
        end

        # One batch's sessions as httperf runs them (at most SESSION_TEMPLATES), each a list of
        # {call:, think_s:}; a request of a mix or a log is a session of its own, and a longer log is
        # sampled evenly.
        def session_list(round)
          rng = random(round)
          case kind
          when "sessions" then Sequence.weighted(sessions, SESSION_TEMPLATES).map { |session| session.fill(rng) }
          when "requests" then Sequence.weighted(requests, SESSION_TEMPLATES).map { |r| [{call: r.fill(rng), think_s: 0}] }
          else
            calls = access_log_calls
            calls.each_slice((calls.size / SESSION_TEMPLATES.to_f).ceil).map { |slice| [{call: slice.first, think_s: 0}] }
          end
        end

        # The endpoint a request the server logged belongs to: the name of the first request whose
        # method and path pattern it matches (literal paths first), a log's grouping, else "other".
        def endpoint(method, path)
          return AccessLog.endpoint(method, path) if kind == "access_log"
          found = patterns.find { |_, pattern| pattern.match?("#{method} #{path}") }
          found ? found.first : OTHER
        end

        # The headers of every request, for httperf, which sends the same headers with each (the loader
        # refuses traffic that httperf runs with different headers in different requests), the
        # workload's included.
        def common_headers = Headers.merge(@headers, (kind == "access_log") ? {} : all_requests.first.headers)

        # The names of the endpoints, in the order given (for a log, by first appearance).
        def endpoint_names
          return access_log_calls.map(&:name).uniq if kind == "access_log"
          all_requests.map(&:name).uniq
        end

        private

        def with_headers(call) = @headers.empty? ? call : Call.new(**call.to_h, headers: Headers.merge(@headers, call.headers)).freeze

        def all_requests = sessions? ? sessions.flat_map(&:requests) : requests

        def access_log_calls = @access_log_calls ||= AccessLog.read(access_log_path)

        def patterns
          @patterns ||= all_requests.each_with_index.sort_by { |r, i| [-r.specificity, i] }.map { |r, _| [r.name, r.pattern] }
        end
      end
    end
  end
end

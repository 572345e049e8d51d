# How an http batch loads its server (docs/load-models.md): the closed loop (wrk's connections for
# keepalive and close, httperf's for client-close) or the open loop (httperf at params.rate, Load::
# HttperfOpen). Builds the generator and gives what depends on the model: the metrics that say where
# the latency figures came from, and the warnings when the generator fell behind or lacked its CPU.
module Rubyrig
  module Kinds
    module Http
      module LoadModel
        # The share of synthesized latency samples from which a batch warns about them.
        SYNTHESIZED_SHARE = 0.01

        module_function

        def open?(options) = options["load_model"] == "open"

        # The name of the generator the batch uses: httperf for an open loop, else the connection mode's.
        def generator_name(options, params) = open?(options) ? "httperf" : Traffic.generator_for(options, params["connection"])

        # Which model measured a batch's latency, for every report: "closed loop (wrk, 8 connections)",
        # "closed loop (httperf, 4 connections, client-close)" or "open loop (httperf, 100/s Poisson)".
        def describe(options, params)
          if open?(options)
            unit = options["traffic"]&.key?("sessions") ? " sessions" : ""
            return format("open loop (httperf, %g%s/s %s)", params["rate"], unit, (options["arrival"] == "constant") ? "constant" : "Poisson") if params["rate"]
            return "open loop (httperf, capacity search)"
          end
          connections = "#{params["connections"]} connection#{"s" unless params["connections"] == 1}"
          return "closed loop (httperf sessions, #{connections})" if options["traffic"]&.key?("sessions")
          (generator_name(options, params) == "httperf") ? "closed loop (httperf, #{connections}, client-close)" : "closed loop (wrk, #{connections})"
        end

        # The generator of a batch: cpus its CPU list, traffic its Traffic (or nil). The workload's
        # headers go on the command line, or with traffic into its files (under each request's own).
        def generator(options, params, cpus, traffic: nil)
          name = generator_name(options, params)
          binary = Load.fetch(name).locate(options[name])
          timeout_s = options["request_timeout_s"]
          headers = traffic ? {} : options["headers"] || {}
          if open?(options)
            Load::HttperfOpen.new(binary: binary, rate_per_s: params.fetch("rate"), arrival: options["arrival"], timeout_s: timeout_s, cpus: cpus,
              wsesslog: traffic&.wsesslog(cpus ? Processes::CpuList.parse(cpus).size : 1), headers: headers)
          elsif traffic&.sessions?
            Load::HttperfSessions.new(binary: binary, wsesslog: traffic.wsesslog(params["connections"]), timeout_s: timeout_s, cpus: cpus)
          elsif name == "httperf"
            Load::Httperf.new(binary: binary, connections: params["connections"], timeout_s: timeout_s, cpus: cpus, headers: headers)
          else
            Load::Wrk.new(binary: binary, threads: options["load_threads"], connections: params["connections"],
              timeout_s: timeout_s, connection: params["connection"], cpus: cpus, script: traffic&.wrk_script(options["load_threads"]), headers: headers)
          end
        end

        # The model's metrics: the rate offered (only when the generator kept up) and achieved, and the
        # latency samples the generator synthesized.
        def metrics(measured)
          {
            "offered_rate_per_s" => measured.behind ? nil : measured.offered_rate_per_s,
            "achieved_rate_per_s" => measured.achieved_rate_per_s,
            "latency_synthesized_count" => measured.latency_synthesized_count
          }.compact
        end

        # What the batch says of its generator: fell behind, lacked its CPU (open loop: httperf spins, so
        # a full CPU is no sign of saturation), or saturated (closed loop), and synthesized samples.
        def warnings(measured, generator, load_fraction, server_fraction)
          if generator.is_a?(Load::HttperfOpen)
            open_warnings(measured, generator, load_fraction)
          else
            [Driver.saturation_warning(load_fraction, server_fraction, generator.name), synthesized_warning(measured)].compact
          end
        end

        def open_warnings(measured, generator, load_fraction)
          warnings = [Load::HttperfOpen.cpu_warning(load_fraction)]
          if measured.behind
            warnings << format("httperf fell behind the offered %g requests/s (%s): the batch reports the %.1f/s it achieved and no offered rate, " \
              "and latencies of requests started late count from when they started, not when they were due; give it more --load-cpus or a lower rate",
              generator.rate_per_s, measured.behind_reasons.join("; "), measured.achieved_rate_per_s)
          end
          warnings.compact
        end

        # wrk's coordinated-omission correction made up at least SYNTHESIZED_SHARE of its latency samples.
        def synthesized_warning(measured)
          synthesized = measured.latency_synthesized_count.to_i
          total = synthesized + measured.requests
          return nil unless total.positive? && synthesized >= SYNTHESIZED_SHARE * total
          format("wrk synthesized %d of the %d latency samples (%.0f%%; its coordinated-omission correction, from the mean interval per connection): " \
            "its percentiles are partly made up; an open loop (load_model: open) measures the tail", synthesized, total, 100.0 * synthesized / total)
        end
      end
    end
  end
end

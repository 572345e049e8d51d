# Measures one batch of an http workload: a Rack or Rails app under Puma, loaded in a closed loop by wrk
# (keepalive, close) or httperf (client-close), or in an open loop by httperf (LoadModel). Each batch boots a fresh server (boot_s), warms it with a
# separate generator run, then measures with a second run against the same server: throughput is
# completed responses over the generator's measured duration, with latency percentiles, errors by
# kind, server CPU and memory of the whole tree (master and workers), and the load generator's CPU.
require "fileutils"

module Rubyrig
  module Kinds
    module Http
      class Driver
        # Above this share of its CPUs the load generator, not the server, may be what limits throughput.
        LOAD_SATURATED = 0.9

        # The server tree's CPU use between two Monitor readings taken around the measured run.
        ServerCpu = Struct.new(:before, :after, keyword_init: true) do
          def cpu_s = (before && after) ? after.cpu_s - before.cpu_s : nil

          def fraction(cpus)
            elapsed = (before && after) ? after.at - before.at : 0
            (cpu_s && elapsed.positive?) ? cpu_s / (elapsed * cpus) : nil
          end
        end

        # A warning when Puma did not stop cleanly. The stop comes after the measured run, so its numbers
        # stand; what is lost is the probe facts of any process that was killed. Ruby's own deadlock
        # report in Puma's log is named when present.
        def self.unclean_stop_warning(how_it_ended, log_path)
          how = [how_it_ended]
          if File.exist?(log_path) && Processes::TextFile.read(log_path).include?("No live threads left")
            how << "Ruby reported \"No live threads left. Deadlock?\" in Puma's shutdown"
          end
          "Puma did not exit cleanly after TERM (#{how.join("; ")}); the measured run had finished, so its numbers stand; see #{log_path}"
        end

        # A warning when the load generator kept its CPUs busy: then it, not the server, may set the pace.
        def self.saturation_warning(load_fraction, server_fraction, generator = "wrk")
          return nil unless load_fraction && load_fraction >= LOAD_SATURATED
          shares = format("#{generator} used %.0f%% of its CPUs, the server %.0f%% of its", load_fraction * 100, server_fraction.to_f * 100)
          more = (generator == "wrk") ? "more load_threads or --load-cpus" : "more --load-cpus"
          if server_fraction && server_fraction >= LOAD_SATURATED
            "the load generator is saturated as well as the server (#{shares}); give #{generator} #{more}"
          else
            "the load generator, not the server, is saturated (#{shares}): the throughput measures #{generator}; give it #{more}"
          end
        end

        def initialize(context)
          @context = context
          @options = context.workload.options
          @params = context.params
        end

        def run
          @traffic = Traffic.from_options(@options)&.then { |t| Traffic::Batch.new(t, dir: @context.artifacts_dir, round: @context.batch.round) }
          split = Kind.cpu_split(@options, server_cpus: @context.server_cpus, load_cpus: @context.load_cpus,
            cpus: @context.cpus)
          server = Services::Puma.new(
            context: @context.with(cpus: split.server), process_run: Processes::MeasuredRun,
            rackup: Kind.rackup(@context.workload), processes: @params["processes"], threads: @params["threads"],
            port: @options["port"] ? Services::Ports.check_free!(@options["port"]) : Services::Ports.free,
            boot_timeout_s: @options["boot_timeout_s"], path: @options["path"], env: server_env, log_requests: !@traffic.nil?, headers: @options["headers"] || {}
          )
          measure(server, split)
        rescue Services::Puma::BootFailed, Services::Puma::Exited => e
          Result.failed(e.message, facts: base_facts(split), artifacts: artifacts)
        rescue Load::Wrk::RunFailed, Load::Httperf::RunFailed => e
          # A load generator that failed because the server died: the server's exit is the reason.
          Result.failed(server.exit_reason("while #{generator_name} loaded it") || e.message, facts: base_facts(split), artifacts: artifacts)
        ensure
          server&.abort
        end

        private

        def measure(server, split)
          server.start
          return capacity(server, split) if @options["capacity"]
          generator = generator(split)
          warmup = (@options["warmup_s"] > 0) ? run_load(generator, server, @options["warmup_s"], "#{generator.name}-warmup") : nil
          server.check_running!("during the warmup")
          before = server.sample
          @traffic&.start(server.log_path("stdout"))
          measured = run_load(generator, server, @options["duration_s"], generator.name)
          server.check_running!("during the measured load")
          after = server.sample
          @traffic&.finish(server.log_path("stdout"))
          outcome = server.stop
          result(outcome, server, measured, warmup, ServerCpu.new(before: before, after: after).freeze, split, generator)
        end

        # A batch that searches its capacity (CapacityRun) against its one server: the capacity step's
        # Result with the search's metrics, samples and warnings; server CPU over the whole search.
        def capacity(server, split)
          before = server.sample
          search = CapacityRun.for_batch(@context, server, split.load, traffic: @traffic).measure
          after = server.sample
          outcome = server.stop
          return CapacityRun.failed(Result.failed(search.problem, facts: base_facts(split), artifacts: artifacts), search) if search.problem
          generator = LoadModel.generator(@options, @params.merge("rate" => search.measured.offered_rate_per_s), split.load)
          CapacityRun.finish(result(outcome, server, search.measured, search.warmup, ServerCpu.new(before: before, after: after).freeze, split, generator), search)
        end

        def run_load(generator, server, duration_s, label)
          generator.run(server.url, duration_s: duration_s, dir: @context.artifacts_dir, label: label)
        end

        def generator_name = LoadModel.generator_name(@options, @params)

        def generator(split) = LoadModel.generator(@options, @params, split.load, traffic: @traffic)

        def server_env = Kind.production_env(@context.launch.env)

        def result(outcome, server, measured, warmup, server_cpu, split, generator)
          metrics = http_metrics(measured, warmup, server, server_cpu, split, generator)
          metrics = outcome.metrics.except("wall_s").merge(metrics).merge(@traffic ? @traffic.metrics(measured) : {})
          warnings = outcome.warnings + split.warnings
          status, reason = status(measured)
          unless outcome.problems.empty?
            status = Results::Trial::FAILED
            reason = outcome.problems.join("; ")
          end
          warnings << "#{measured.error_count} errors in #{measured.requests} responses (#{measured.error_summary})" if measured.error_count.positive?
          warnings.concat(LoadModel.warnings(measured, generator, metrics["load_cpu_fraction"], metrics["server_cpu_fraction"]))
          unless outcome.exit&.success? || outcome.exit&.signal == "TERM"
            warnings << self.class.unclean_stop_warning(outcome.exit&.describe || "still running", server.log_path)
          end
          Result.new(status: status, reason: reason, metrics: metrics,
            facts: base_facts(split).merge(outcome.facts).merge("gems" => gems),
            samples: {generator.name => measured.to_h, "#{generator.name}_warmup" => warmup&.to_h}.compact,
            artifacts: artifacts, warnings: warnings)
        end

        def status(measured)
          if measured.good_responses.zero?
            return [Results::Trial::FAILED, "no successful responses in the measured run (#{measured.error_summary}); see wrk.log and server-stderr.log"]
          end
          return [Results::Trial::OK, nil] if measured.error_count.zero?
          rate = measured.error_rate
          if rate > @options["max_error_rate"]
            return [Results::Trial::FAILED, format("error rate %.2f%% is above max_error_rate %.2f%% (%s)", rate * 100, @options["max_error_rate"] * 100, measured.error_summary)]
          end
          [Results::Trial::OK_WITH_ERRORS, nil]
        end

        def http_metrics(measured, warmup, server, server_cpu, split, generator)
          latency = measured.latency_s
          load_cpus = [generator.threads, split.load_count].min
          {
            "requests_per_s" => measured.requests_per_s,
            "request_count" => measured.requests,
            "measured_s" => measured.duration_s,
            "latency_p50_s" => latency["p50"], "latency_p90_s" => latency["p90"], "latency_p95_s" => latency["p95"], "latency_p99_s" => latency["p99"],
            "latency_p999_s" => latency["p999"], "latency_max_s" => latency["max"],
            "error_count" => measured.error_count, "error_rate" => measured.error_rate,
            "connect_error_count" => measured.errors["connect"], "read_error_count" => measured.errors["read"],
            "write_error_count" => measured.errors["write"], "timeout_error_count" => measured.errors["timeout"],
            "non_2xx_3xx_count" => measured.errors["status"],
            "boot_s" => server.boot_s,
            "warmup_requests_per_s" => warmup&.requests_per_s,
            "server_cpu_s" => server_cpu.cpu_s,
            "server_cpu_fraction" => server_cpu.fraction(split.server_count),
            "load_cpu_s" => measured.cpu_s,
            "load_cpu_fraction" => measured.cpu_fraction(load_cpus)
          }.merge(LoadModel.metrics(measured)).compact
        end

        def base_facts(split)
          {
            "framework" => Kind.framework(Kind.rackup(@context.workload)),
            "server" => "puma", "load_generator" => generator_name, "load_model" => @options["load_model"] || "closed",
            "load" => LoadModel.describe(@options, @params), "connection" => LoadModel.open?(@options) ? nil : @params["connection"],
            "server_cpus" => split&.server, "load_cpus" => split&.load
          }.compact
        end

        # Versions of the server-side gems, from the runtime's lockfile.
        def gems
          lockfile = "#{@context.bundle_env&.fetch("BUNDLE_GEMFILE", nil)}.lock"
          return {} unless File.file?(lockfile)
          Processes::TextFile.read(lockfile).scan(/^    (puma|rack|rails|railties|actionpack) \(([^)]+)\)$/).to_h
        end

        # The server's config and logs, each load generator run's log and JSON, and the probe files.
        def artifacts
          generated = Dir.children(@context.artifacts_dir).grep(/\A(#{Load::ADAPTERS.keys.join("|")})(-warmup)?(-\d+)?\.(log|json)\z/).sort
          (%w[puma.rb server-stdout.log server-stderr.log] + generated + CapacityRun.artifacts(@context.artifacts_dir) + @traffic&.artifacts.to_a + %w[probe])
            .select { |name| File.exist?(File.join(@context.artifacts_dir, name)) }
        end
      end
    end
  end
end

# The http kind: a Rack or Rails app (`app:` a config.ru or an app directory) under Puma, loaded by wrk
# (keepalive, close) or httperf (client-close). Its parameters are the server's processes and threads,
# the connection mode and the connections; its keys the load settings (Http::Options).
require "securerandom"

module Rubyrig
  module Kinds
    module Http
      module Kind
        extend Contract

        RAILS_MARKER = File.join("config", "application.rb")
        METRICS = [
          {name: "requests_per_s", unit: "1/s", higher_is_better: true, kind: :speed, rate: true, label: "requests/s"},
          {name: "latency_p50_s", unit: "s", higher_is_better: false, kind: :speed, label: "latency p50"},
          {name: "latency_p90_s", unit: "s", higher_is_better: false, kind: :speed, label: "latency p90"},
          {name: "latency_p95_s", unit: "s", higher_is_better: false, kind: :speed, label: "latency p95"},
          {name: "latency_p99_s", unit: "s", higher_is_better: false, kind: :speed, label: "latency p99"},
          {name: "latency_p999_s", unit: "s", higher_is_better: false, kind: :speed, label: "latency p99.9"},
          {name: "latency_max_s", unit: "s", higher_is_better: false, kind: :speed, label: "latency max"},
          {name: "offered_rate_per_s", unit: "1/s", higher_is_better: true, kind: :resource, rate: true, label: "offered rate (open loop)"},
          {name: "achieved_rate_per_s", unit: "1/s", higher_is_better: true, kind: :resource, rate: true, label: "achieved arrival rate (open loop)"},
          {name: "latency_synthesized_count", unit: "", higher_is_better: false, kind: :resource, label: "latency samples synthesized by the generator"},
          {name: "load_cpu_fraction", unit: "fraction", higher_is_better: false, kind: :resource, label: "load generator CPU"},
          {name: "warmup_requests_per_s", unit: "1/s", higher_is_better: true, kind: :speed, rate: true, label: "requests/s during warmup"},
          {name: "request_count", unit: "", higher_is_better: true, kind: :resource, label: "completed responses"},
          {name: "measured_s", unit: "s", higher_is_better: false, kind: :resource, label: "measured duration"},
          {name: "error_rate", unit: "fraction", higher_is_better: false, kind: :resource, label: "error rate"},
          {name: "connect_error_count", unit: "", higher_is_better: false, kind: :resource, label: "connect errors"},
          {name: "read_error_count", unit: "", higher_is_better: false, kind: :resource, label: "read errors"},
          {name: "write_error_count", unit: "", higher_is_better: false, kind: :resource, label: "write errors"},
          {name: "timeout_error_count", unit: "", higher_is_better: false, kind: :resource, label: "timeouts"},
          {name: "non_2xx_3xx_count", unit: "", higher_is_better: false, kind: :resource, label: "non-2xx/3xx responses"},
          {name: "server_cpu_s", unit: "s", higher_is_better: false, kind: :resource, label: "server CPU (measured run)"},
          {name: "server_cpu_fraction", unit: "fraction", higher_is_better: false, kind: :resource, label: "server CPU / its CPUs"},
          {name: "load_cpu_s", unit: "s", higher_is_better: false, kind: :resource, label: "load generator CPU time"},
          *Traffic::METRICS
        ].freeze

        def self.kind = "http"

        def self.selector = "app"

        def self.keys = Options::DEFAULTS.keys

        def self.extra_params = Options::PARAMS

        def self.default_params = {"processes" => 1, "threads" => 1, "connection" => "keepalive", "connections" => 8}.freeze

        # Keep-alive against a new connection per request (wrk's close); client-close needs httperf.
        def self.alternative_params = {"connection" => %w[keepalive close]}.freeze

        # A batch that searched its capacity reports it; any other, its requests/s.
        def self.primary_metrics = %w[capacity_per_s requests_per_s]

        def self.metrics = METRICS + Capacity::METRICS

        def self.driver = Driver

        def self.load(fields, builtin:)
          target = builtin ? builtin.name : target(fields)
          options = Options.load(fields, builtin)
          return Loaded.new(target: target, options: options) if builtin
          Loaded.new(target: target, options: options, name: target, gemfile: default_gemfile(target))
        end

        # `app:` names a config.ru or a directory holding one (a Rails app); the config.ru's path.
        def self.target(fields)
          value = fields[selector]
          fields.fail([selector], "must be the path of a config.ru or of an app directory holding one") unless value.is_a?(String)
          path = fields.path(value)
          path = File.join(path, "config.ru") if File.directory?(path)
          fields.fail([selector], "#{value}: no such config.ru; give a Rack config.ru or a Rails app directory") unless File.file?(path)
          path
        end

        # A config.ru, or a directory that holds one.
        def self.shortcut(args)
          app = (args.size == 1) && (args.first.end_with?(".ru") || File.file?(File.join(args.first, "config.ru")))
          app ? {selector => args.first} : nil
        end

        # The app's own Gemfile next to its config.ru, else the built-in Rack gem set (puma + rack).
        def self.default_gemfile(rackup)
          own = File.join(File.dirname(rackup), "Gemfile")
          File.file?(own) ? own : Experiment::Builtins.fetch("rack-hello").gemfile
        end

        # Every app runs under Puma, which its own bundle may lack.
        def self.required_gems(_workload) = %w[puma]

        # The load generators of the workload's connection modes must be installed before the first
        # batch; parsing an experiment does not need them. path: where they are looked up.
        def self.preflight(workload, _launch, path: ENV.fetch("PATH", ""))
          generators(workload).each { |name| Load.fetch(name).locate(workload.options[name], path: path) }
        end

        # The names of the load generators the workload needs, e.g. ["wrk", "httperf"]: its connection
        # modes' in a closed loop, httperf in an open one.
        def self.generators(workload)
          return ["httperf"] if LoadModel.open?(workload.options)
          Array(effective_params(workload.params)["connection"]).map { |mode| Traffic.generator_for(workload.options, mode) }.uniq
        end

        def self.framework(rackup) = File.file?(File.join(File.dirname(rackup), RAILS_MARKER)) ? "rails" : "rack"

        def self.rackup(workload) = workload.options["rackup"] || workload.target

        # Run-level facts for run.json: the app's framework, the CPU split and the load generators' versions.
        def self.run_meta(workload, server_cpus:, load_cpus:, cpus:)
          options = workload.options
          split = cpu_split(options, server_cpus: server_cpus, load_cpus: load_cpus, cpus: cpus)
          {
            "framework" => framework(rackup(workload)),
            "load_generator" => generators(workload).map { |name| Load.fetch(name).version(Load.fetch(name).locate(options[name])) }.join(", "),
            "cpu_split" => split.to_h
          }
        end

        # CLI flags win over the workload's keys; the generic --cpus/cpus: pins the server.
        def self.cpu_split(options, server_cpus:, load_cpus:, cpus:)
          Processes::CpuSplit.resolve(server: server_cpus || options["server_cpus"] || cpus, load: load_cpus || options["load_cpus"])
        end

        # The app's `prepare:` step (e.g. bin/rails db:prepare) runs in its directory, in production.
        def self.prepare(workload) = [File.dirname(rackup(workload)), production_env({})]

        # Production mode for Rack and Rails; a throwaway secret so that a Rails app boots in production
        # (unless the runtime's environment gives one).
        def self.production_env(runtime_env)
          env = {"RACK_ENV" => "production", "RAILS_ENV" => "production", "RAILS_LOG_LEVEL" => "warn"}
          env["SECRET_KEY_BASE"] = SecureRandom.hex(64) unless runtime_env["SECRET_KEY_BASE"]
          env
        end
      end
    end
  end
end

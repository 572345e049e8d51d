# The experiment keys of an http workload, validated with the file's line and a fix: the server
# parameters that form the matrix (processes, threads, connection mode, connections) and the load
# settings (wrk threads, duration, warmup, error threshold, path, port, CPUs, the wrk and httperf
# binaries), the load model (closed, or open at params.rate with Poisson or constant arrivals), a
# latency objective with its capacity search (Objective, Capacity), the traffic and the headers.
module Rubyrig
  module Kinds
    module Http
      module Options
        CONNECTION_MODES = %w[keepalive close client-close].freeze
        LOAD_MODELS = %w[closed open].freeze
        # Parameters without a default: the open loop's offered requests/s.
        PARAMS = %w[rate].freeze
        # The closed loop's parameters, which an open loop does not have.
        CLOSED_PARAMS = %w[connection connections].freeze
        DEFAULTS = {
          "load_threads" => 1, "duration_s" => 10, "warmup_s" => 5, "max_error_rate" => 0.01,
          "request_timeout_s" => 2, "path" => "/", "port" => nil, "server_cpus" => nil, "load_cpus" => nil,
          "boot_timeout_s" => 60, "wrk" => "wrk", "httperf" => "httperf", "slo" => nil, "capacity" => nil,
          "traffic" => nil, "load_model" => "closed", "arrival" => "poisson", "headers" => nil
        }.freeze

        module_function

        # The options of a workload entry (Experiment::Fields); builtin: the built-in's definition, or nil.
        def load(fields, builtin)
          options = DEFAULTS.merge(fields.hash.slice(*DEFAULTS.keys))
          check_load(options, fields)
          params = check_params(fields, builtin)
          Array(params["connections"]).each do |connections|
            next if (connections % options["load_threads"]).zero?
            fields.fail(["params", "connections"], "#{connections} is not a multiple of load_threads #{options["load_threads"]}: " \
              "wrk would leave #{connections % options["load_threads"]} connection(s) unused; choose connections divisible by load_threads")
          end
          options["rackup"] = builtin.path if builtin
          check_model(options, fields)
          options["capacity"] = Capacity.load(fields, options, fields["params"].is_a?(Hash) ? fields["params"] : {})
          traffic_fields = traffic_fields(fields, builtin)
          options["traffic"] = Traffic.load(traffic_fields)
          options["headers"] = Headers.load(fields)
          Traffic.check_params(options["traffic"], options, params, traffic_fields) if options["traffic"]
          options
        end

        # Where the traffic comes from: the entry's traffic:, else a built-in's own (unless the entry
        # gives a path: to load alone).
        def traffic_fields(fields, builtin)
          return fields if fields.key?("traffic") || fields.key?("path") || builtin.nil?
          builtin.fields
        end

        def check_load(options, fields)
          %w[load_threads duration_s request_timeout_s].each do |key|
            next if options[key].is_a?(Integer) && options[key].positive?
            fields.fail([key], "must be a whole positive number (wrk takes whole seconds), got #{options[key].inspect}")
          end
          unless options["warmup_s"].is_a?(Integer) && options["warmup_s"] >= 0
            fields.fail(["warmup_s"], "must be a whole number of seconds, 0 or more (wrk takes whole seconds), got #{options["warmup_s"].inspect}")
          end
          rate = options["max_error_rate"]
          fields.fail(["max_error_rate"], "must be a fraction from 0 to 1, e.g. 0.01 for 1%, got #{rate.inspect}") unless rate.is_a?(Numeric) && rate.between?(0, 1)
          boot = options["boot_timeout_s"]
          fields.fail(["boot_timeout_s"], "must be a positive number of seconds, got #{boot.inspect}") unless boot.is_a?(Numeric) && boot.positive?
          path = options["path"]
          fields.fail(["path"], "must be a URL path starting with /, e.g. /hello, got #{path.inspect}") unless path.is_a?(String) && path.match?(%r{\A/\S*\z})
          port = options["port"]
          fields.fail(["port"], "must be a TCP port from 1 to 65535, got #{port.inspect}") if !port.nil? && !(port.is_a?(Integer) && port.between?(1, 65_535))
          %w[server_cpus load_cpus].each do |key|
            value = options[key]
            next if value.nil? || Processes::CpuList.valid?(value)
            fields.fail([key], Processes::CpuList.problem(value))
          end
          %w[wrk httperf].each do |tool|
            fields.fail([tool], "must be the name or path of the #{tool} binary") unless options[tool].is_a?(String)
          end
        end

        # The load model and what goes with it: an open loop offers params.rate (or searches it, with an
        # slo:) and has no connections; a closed loop has no rate and no arrival process.
        def check_model(options, fields)
          model = options["load_model"]
          fields.fail(["load_model"], "#{model.inspect} is not a load model; use closed (connections that each send when their last answer came) or open (requests arrive at params.rate)") unless LOAD_MODELS.include?(model)
          fields.fail(["arrival"], "#{options["arrival"].inspect} is not an arrival process; use poisson or constant") unless Load::HttperfOpen::ARRIVALS.include?(options["arrival"])
          given = fields["params"].is_a?(Hash) ? fields["params"] : {}
          (model == "open") ? check_open(given, options, fields) : check_closed(given, fields)
        end

        def check_closed(given, fields)
          fields.fail(["params", "rate"], "is an offered rate, which a closed loop does not have: add load_model: open, or remove rate") if given.key?("rate")
          fields.fail(["arrival"], "applies to an open loop: add load_model: open, or remove arrival") if fields.hash.key?("arrival")
        end

        def check_open(given, options, fields)
          unless given.key?("rate") || options["slo"]
            fields.fail(["load_model"], "open needs params.rate, the offered requests/s (e.g. rate: [50, 100]), or an slo: to search the highest rate that meets it")
          end
          Array(given["rate"]).each do |rate|
            fields.fail(["params", "rate"], "must be a positive number of requests/s or a list of them, got #{given["rate"].inspect}") unless rate.is_a?(Numeric) && rate.positive?
          end
          (CLOSED_PARAMS & given.keys).each do |key|
            fields.fail(["params", key], "belongs to the closed loop; an open loop sends each request on its own connection (httperf closes it): remove #{key} or use load_model: closed")
          end
        end

        # The parameters the cells will have (the kind's defaults merged in), each value checked.
        def check_params(fields, builtin)
          given = fields["params"].is_a?(Hash) ? fields["params"] : {}
          defaults = Kind.default_params
          unless builtin
            given.each_key do |key|
              next if defaults.key?(key) || PARAMS.include?(key)
              fields.fail(["params", key], "is not a parameter of an http workload; #{Suggest.hint(key, defaults.keys + PARAMS)}")
            end
          end
          params = defaults.merge(builtin ? builtin.params : {}).merge(given)
          %w[processes threads connections].each do |key|
            next if Array(params[key]).all? { |v| v.is_a?(Integer) && v.positive? }
            fields.fail(["params", key], "must be a positive whole number or a list of them, got #{params[key].inspect}")
          end
          Array(params["connection"]).each do |mode|
            next if CONNECTION_MODES.include?(mode)
            fields.fail(["params", "connection"], "'#{mode}' is not a connection mode; use #{CONNECTION_MODES.join(", ")}")
          end
          params
        end
      end
    end
  end
end

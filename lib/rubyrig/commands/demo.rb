# `rubyrig demo`: the main job on embedded defaults. Installs what it needs (jemalloc as root, CRuby
# 3.3.8 through `rubyrig build`, which installs the build dependencies Debian's source package declares),
# then compares the system Ruby with 3.3.8, with and without YJIT.
module Rubyrig
  module Commands
    class Demo < Base
      EXPERIMENT = File.expand_path("../demo.yml", __dir__)
      SECOND_RUBY = "3.3.8"

      def call
        build = true
        batches = nil
        dir = nil
        parser = OptionParser.new do |opts|
          opts.banner = "Usage: rubyrig demo [options]\n\nRuns #{EXPERIMENT}: system and #{SECOND_RUBY}, each with and without YJIT,\n" \
            "on builtin:nbody and builtin:mtime-threads (threads 1 and 4). Builds #{SECOND_RUBY} first if needed\n" \
            "(about 15 minutes on 2 cores, once; cached in #{@settings.cache_dir}/rubies).\n\nOptions:"
          opts.on("--no-build", "skip #{SECOND_RUBY}: compare the system Ruby with and without YJIT only (default: build)") { build = false }
          opts.on("-b", "--batches N", Integer, "batches per cell (default: 5)") { |n| batches = n }
          opts.on("--results DIR", "where the run is kept (default: ./rubyrig-results/<timestamp>-demo)") { |d| dir = d }
          export_options(opts)
        end
        return CLI::EXIT_OK unless parse(parser)
        Apt.new(io: err).ensure!(%w[libjemalloc2], why: "the demo's jemalloc check")
        raw = Experiment::YamlSource.load(EXPERIMENT).data
        raw["batches"] = batches if batches
        if build
          ensure_second_ruby
        else
          raw["runtimes"] = raw["runtimes"].reject { |r| r.start_with?(SECOND_RUBY) }
        end
        experiment = Experiment.from_source(Experiment::YamlSource.from_data(raw, EXPERIMENT), base_dir: File.dirname(EXPERIMENT))
        dir ||= default_results_dir("demo")
        execute(dir) { runner(experiment, raw).start(dir, command: "demo", command_line: ["rubyrig", "demo", *@argv]) }
      end

      private

      def ensure_second_ruby
        catalog.resolve(SECOND_RUBY)
      rescue RuntimeSpecError # not built yet: build it now, then look again
        err.puts("CRuby #{SECOND_RUBY} is not installed; building it with `rubyrig build #{SECOND_RUBY}` (once, then cached)")
        status = Build.new([SECOND_RUBY], @settings).call
        raise BuildError, "building #{SECOND_RUBY} failed; run `rubyrig build #{SECOND_RUBY}` to see why, or `rubyrig demo --no-build`" unless status.zero?
        @catalog = nil
        catalog.resolve(SECOND_RUBY)
      end
    end
  end
end

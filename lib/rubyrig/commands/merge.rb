# `rubyrig merge DIR... --results OUT`: merges the shards of a run into one run and reports it, with
# the host as a block of the statistics; --fail-if gates it like a run.
module Rubyrig
  module Commands
    class Merge < Base
      BANNER = <<~TEXT
        Usage: rubyrig merge DIR... --results OUT [options]

        Merges the results directories of `rubyrig run EXP.yml --shard K/N` (or directories holding
        them, such as downloaded CI artifacts) into one run, after checking that every shard ran the
        same experiment on the same interpreters, and prints its report. Comparisons are made within
        each host and combined; a missing or unfinished shard is a warning unless --require-all.

        Options:
      TEXT

      def call
        out_dir = nil
        require_all = false
        parser = OptionParser.new do |opts|
          opts.banner = BANNER
          opts.on("--results DIR", "where the merged run is written (default: ./rubyrig-results/<timestamp>-<name>-merged)") { |d| out_dir = d }
          opts.on("--require-all", "refuse to merge when a shard is missing or did not finish (default: merge what exists, with a warning)") { require_all = true }
          opts.on("--fail-if CONDITION", FAIL_IF_HELP) do |c|
            @gate << Analysis::Gate.parse(c)
          end
          export_options(opts)
        end
        command_line = ["rubyrig", "merge", *@argv]
        rest = parse(parser)
        return CLI::EXIT_OK unless rest
        if rest.empty?
          out.puts(parser.help)
          return CLI::EXIT_USAGE
        end
        out_dir ||= default_results_dir("#{merged_name(rest)}-merged")
        result = Rubyrig::Results::Merge.new(rest, require_all: require_all).write(out_dir, command_line: command_line)
        result.warnings.each { |w| err.puts(Printable.line("rubyrig: warning: #{w}")) }
        render(result.store)
      end

      private

      # The run's name, from the first shard found, for the default directory.
      def merged_name(paths)
        path = paths.find { |p| File.file?(File.join(p, Results::Store::RUN_FILE)) } ||
          paths.flat_map { |p| File.directory?(p) ? Dir.glob(File.join(p, "*", Results::Store::RUN_FILE)).sort.map { |f| File.dirname(f) } : [] }.first
        path ? (Results::Store.open(path).run.name || "run") : "run"
      end
    end
  end
end

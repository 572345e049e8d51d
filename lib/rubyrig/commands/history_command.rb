# `rubyrig history add HISTORY RUN_DIR...` adds finished runs to a history; `rubyrig history HISTORY`
# shows its series and change points (HistoryShow). (Named HistoryCommand so that Rubyrig::History
# stays what `History` means inside Commands.)
module Rubyrig
  module Commands
    class HistoryCommand < Base
      BANNER = <<~TEXT
        Usage: rubyrig history HISTORY [options]
               rubyrig history add HISTORY RUN_DIR...

        A history keeps finished runs (docs/history-format.md): `add` adds each run's ok batches per
        workload, parameters, runtime and metric, with the interpreter the probe verified, the host and
        the workload's git revision (a run already there adds nothing); `rubyrig run --history HISTORY`
        adds a run as it finishes. HISTORY is a folder, created by the first add.

        Options:
      TEXT

      def call
        return HistoryShow.new(@argv, @settings).call unless @argv.first == "add"
        @argv = @argv.drop(1)
        parser = OptionParser.new { |opts| opts.banner = BANNER }
        rest = parse(parser)
        return CLI::EXIT_OK unless rest
        return add(rest.first, rest.drop(1)) if rest.size >= 2
        out.puts(parser.help)
        CLI::EXIT_USAGE
      end

      private

      def add(path, dirs)
        store = History::Store.new(path)
        dirs.each do |dir|
          added = store.add(dir)
          out.puts(Printable.line(added.zero? ? "#{dir}: already in #{store.path}" : "#{dir}: added to #{store.path} (#{added} series points)"))
        end
        CLI::EXIT_OK
      end
    end
  end
end

# `rubyrig report DIR`: renders any run again from its trials.jsonl and run.json.
module Rubyrig
  module Commands
    class Report < Base
      def call
        parser = OptionParser.new do |opts|
          opts.banner = "Usage: rubyrig report DIR [options]\n\nRecomputes the report of a run (finished or partial).\n\nOptions:"
          export_options(opts)
        end
        rest = parse(parser)
        return CLI::EXIT_OK unless rest
        if rest.size != 1
          out.puts(parser.help)
          return CLI::EXIT_USAGE
        end
        render(Results::Store.open(rest.first))
      end
    end
  end
end

# `rubyrig doctor`: prints every host check with its state and the fix for what is wrong.
module Rubyrig
  module Commands
    class Doctor < Base
      MARKS = {ok: "ok  ", warn: "warn", missing: "MISS"}.freeze

      def call
        parser = OptionParser.new do |opts|
          opts.banner = "Usage: rubyrig doctor\n\nChecks tools, interpreters, CPU frequency settings, load and how rubyrig contains its processes, and says what to fix.\n\nOptions:"
        end
        return CLI::EXIT_OK unless parse(parser)
        checks = Rubyrig::Doctor.new(settings: @settings, catalog: catalog).checks
        checks.group_by(&:group).each do |group, list|
          out.puts(group)
          list.each do |c|
            out.puts("  [#{MARKS.fetch(c.state)}] #{c.name.ljust(14)} #{c.detail}")
            out.puts("         fix: #{c.fix}") if c.fix
          end
        end
        problems = checks.count { |c| c.state != :ok }
        out.puts(problems.zero? ? "\nEverything rubyrig checks is in order." : "\n#{problems} item#{"s" if problems > 1} to look at (see fix: lines).")
        CLI::EXIT_OK
      end
    end
  end
end

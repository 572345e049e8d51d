# Namespace for the CLI subcommands, one class per command.
module Rubyrig
  module Commands
    autoload :Base, "rubyrig/commands/base"
    autoload :Build, "rubyrig/commands/build"
    autoload :Compare, "rubyrig/commands/compare"
    autoload :Demo, "rubyrig/commands/demo"
    autoload :Deploy, "rubyrig/commands/deploy"
    autoload :Doctor, "rubyrig/commands/doctor"
    autoload :Merge, "rubyrig/commands/merge"
    autoload :Install, "rubyrig/commands/install"
    autoload :Report, "rubyrig/commands/report"
    autoload :Run, "rubyrig/commands/run"
    autoload :Runtimes, "rubyrig/commands/runtimes"
    autoload :Workloads, "rubyrig/commands/workloads"
  end
end

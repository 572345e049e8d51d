# Entry point of the rubyrig library: the version, the error classes and the autoloads.
require_relative "rubyrig/version"

module Rubyrig
  # Base class of every error a user can cause and fix; the CLI prints its message as one line.
  class Error < StandardError; end

  # Wrong command-line usage.
  class UsageError < Error; end

  # An experiment file (or CLI shortcut) that cannot be turned into a plan.
  class ExperimentError < Error; end

  # A runtime spec that names no interpreter, or a variant that cannot hold for it.
  class RuntimeSpecError < Error; end

  # An external program rubyrig needs is not installed.
  class ToolMissing < Error; end

  # A results directory that cannot be created, read or resumed.
  class StoreError < Error; end

  # Building an interpreter or installing a gem set failed.
  class BuildError < Error; end

  ROOT = File.expand_path("..", __dir__)

  autoload :Analysis, "rubyrig/analysis"
  autoload :Apt, "rubyrig/apt"
  autoload :Builtins, "rubyrig/builtins"
  autoload :Cell, "rubyrig/cell"
  autoload :Child, "rubyrig/child"
  autoload :Comparison, "rubyrig/comparison"
  autoload :CpuSplit, "rubyrig/cpu_split"
  autoload :CLI, "rubyrig/cli"
  autoload :Commands, "rubyrig/commands"
  autoload :Doctor, "rubyrig/doctor"
  autoload :Drivers, "rubyrig/drivers"
  autoload :Experiment, "rubyrig/experiment"
  autoload :GvlTrace, "rubyrig/gvl_trace"
  autoload :Host, "rubyrig/host"
  autoload :Load, "rubyrig/load"
  autoload :Metrics, "rubyrig/metrics"
  autoload :Monitor, "rubyrig/monitor"
  autoload :Plan, "rubyrig/plan"
  autoload :ProfileComparison, "rubyrig/profile_comparison"
  autoload :ProfileSummary, "rubyrig/profile_summary"
  autoload :Progress, "rubyrig/progress"
  autoload :Reaper, "rubyrig/reaper"
  autoload :Reporters, "rubyrig/reporters"
  autoload :Runner, "rubyrig/runner"
  autoload :Runtime, "rubyrig/runtime"
  autoload :Runtimes, "rubyrig/runtimes"
  autoload :Scaling, "rubyrig/scaling"
  autoload :Services, "rubyrig/services"
  autoload :Settings, "rubyrig/settings"
  autoload :Stats, "rubyrig/stats"
  autoload :Store, "rubyrig/store"
  autoload :Summary, "rubyrig/summary"
  autoload :TextFile, "rubyrig/text_file"
  autoload :Trial, "rubyrig/trial"
  autoload :Which, "rubyrig/which"
  autoload :Workload, "rubyrig/workload"
  autoload :YamlSource, "rubyrig/yaml_source"
end

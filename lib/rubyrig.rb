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

  # Shard results that cannot be merged into one run.
  class MergeError < Error; end

  ROOT = File.expand_path("..", __dir__)

  autoload :Analysis, "rubyrig/analysis"
  autoload :Apt, "rubyrig/apt"
  autoload :Builtins, "rubyrig/experiment/builtins"
  autoload :Cell, "rubyrig/experiment/cell"
  autoload :Deploy, "rubyrig/deploy"
  autoload :Child, "rubyrig/process/child"
  autoload :CpuList, "rubyrig/process/cpu_list"
  autoload :CpuSplit, "rubyrig/process/cpu_split"
  autoload :CLI, "rubyrig/cli"
  autoload :Commands, "rubyrig/commands"
  autoload :Containment, "rubyrig/process/containment"
  autoload :Doctor, "rubyrig/doctor"
  autoload :Drivers, "rubyrig/drivers"
  autoload :Experiment, "rubyrig/experiment"
  autoload :FileName, "rubyrig/process/file_name"
  autoload :ExperimentDigest, "rubyrig/experiment/digest"
  autoload :GvlSummary, "rubyrig/diagnostics/gvl_summary"
  autoload :GvlTrace, "rubyrig/diagnostics/gvl_trace"
  autoload :ExitCause, "rubyrig/process/exit_cause"
  autoload :Host, "rubyrig/process/host"
  autoload :InheritedEnv, "rubyrig/process/inherited_env"
  autoload :Load, "rubyrig/load"
  autoload :Merge, "rubyrig/results/merge"
  autoload :Metrics, "rubyrig/metrics"
  autoload :Monitor, "rubyrig/process/monitor"
  autoload :Plan, "rubyrig/experiment/plan"
  autoload :ProfileSummary, "rubyrig/diagnostics/profile_summary"
  autoload :Printable, "rubyrig/printable"
  autoload :Progress, "rubyrig/progress"
  autoload :Reaper, "rubyrig/process/reaper"
  autoload :Reporters, "rubyrig/reporters"
  autoload :Runner, "rubyrig/runner"
  autoload :RunMeta, "rubyrig/results/run_meta"
  autoload :Runtime, "rubyrig/experiment/runtime"
  autoload :Runtimes, "rubyrig/runtimes"
  autoload :Services, "rubyrig/services"
  autoload :Settings, "rubyrig/settings"
  autoload :Shard, "rubyrig/experiment/shard"
  autoload :Stats, "rubyrig/stats"
  autoload :Suggest, "rubyrig/suggest"
  autoload :Sweep, "rubyrig/process/sweep"
  autoload :Store, "rubyrig/results/store"
  autoload :TextFile, "rubyrig/process/text_file"
  autoload :Trial, "rubyrig/results/trial"
  autoload :Which, "rubyrig/process/which"
  autoload :Workload, "rubyrig/experiment/workload"
  autoload :YamlSource, "rubyrig/experiment/yaml_source"
end

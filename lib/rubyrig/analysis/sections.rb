# The registry of report sections, in the order every format shows them. A section is any object
# whose #section(report) returns an Analysis::Section (nil when the run has nothing for it) from the
# otherwise finished Report; it may live in any folder (a workload kind's own, say) and is added here
# with one line. Registry#with returns a registry with one more section (a test's fixture, say).
module Rubyrig
  class Analysis
    module Sections
      autoload :GemSets, "rubyrig/analysis/sections/gem_sets"
      autoload :Jobs, "rubyrig/analysis/sections/jobs"
      autoload :Memory, "rubyrig/analysis/sections/memory"
      autoload :Profiles, "rubyrig/analysis/sections/profiles"
      autoload :SteadyState, "rubyrig/analysis/sections/steady_state"
      autoload :Sweeps, "rubyrig/analysis/sections/sweeps"
      autoload :Traces, "rubyrig/analysis/sections/traces"
      autoload :Why, "rubyrig/analysis/sections/why"

      # builders: constant names (resolved when a report is built, so that registering loads nothing)
      # or the builders themselves.
      Registry = Struct.new(:builders) do
        def with(builder) = Registry.new((builders + [builder]).freeze).freeze

        def build(report)
          builders.filter_map { |b| (b.is_a?(String) ? Object.const_get(b) : b).section(report) }.freeze
        end
      end

      DEFAULT = Registry.new([
        "Rubyrig::Analysis::Sections::Why",
        "Rubyrig::Kinds::Http::ReportSection",
        "Rubyrig::Kinds::Http::EndpointsSection",
        "Rubyrig::Kinds::Http::CapacitySection",
        "Rubyrig::Analysis::Sections::GemSets",
        "Rubyrig::Analysis::Sections::Jobs",
        "Rubyrig::Analysis::Sections::Sweeps",
        "Rubyrig::Analysis::Sections::Memory",
        "Rubyrig::Analysis::Sections::SteadyState",
        "Rubyrig::Analysis::Sections::Traces",
        "Rubyrig::Analysis::Sections::Profiles",
        "Rubyrig::Analysis::Sections::Ablations",
        "Rubyrig::Analysis::Sections::Suite"
      ].freeze).freeze
    end
  end
end

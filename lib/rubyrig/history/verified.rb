# The interpreter a cell's batches ran on, as the probe saw it from inside the measured processes:
# RUBY_DESCRIPTION (which shows +YJIT, and +MN from 3.3 on) with the allocator it does not show. A record
# without the probe's description (a command that runs no Ruby) says the description is unverified.
module Rubyrig
  module History
    module Verified
      module_function

      # trials: the cell's ok measured trials; recorded: run.json's interpreter entry for the runtime.
      def interpreter(trials, recorded)
        facts = trials.map { |t| t.facts || {} }
        seen = facts.filter_map { |f| f["description"] }.uniq
        text = seen.empty? ? "#{recorded["description"] || "unknown interpreter"} (not verified by the probe)" : seen.join(" / ")
        text += " +jemalloc" if facts.any? { |f| f["allocator"] == "jemalloc" }
        text
      end
    end
  end
end

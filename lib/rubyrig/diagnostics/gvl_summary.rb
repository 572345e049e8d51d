# Adds up, per thread of every traced process of a batch, how long it ran, ran GC, wanted the GVL and
# waited (on I/O or sleeping) in the merged gvl-tracing files, so that the report can draw the GVL
# story without Perfetto. Kept in the trial's samples; bounded to the busiest MAX_THREADS threads.
require "json"

module Rubyrig
  module Diagnostics
    module GvlSummary
      MAX_THREADS = 32
      # gvl-tracing state name => the part of a thread's time it counts in.
      STATES = {"running" => "running_s", "gc" => "gc_s", "wants_gvl" => "wants_gvl_s",
                "waiting" => "waiting_s", "sleeping" => "waiting_s"}.freeze
      PARTS = STATES.values.uniq.freeze

      module_function

      # dir: a batch's trace folder holding gvl-<pid>.json files (GvlTrace#merge's output).
      def collect(dir)
        files = Dir.glob(File.join(dir, "gvl-*.json")).select { |f| File.basename(f).match?(/\Agvl-\d+\.json\z/) }
        threads = files.sort.flat_map { |f| threads(Processes::TextFile.json(f)) }
        return nil if threads.empty?
        busiest = threads.sort_by { |t| -(t["running_s"] + t["gc_s"] + t["wants_gvl_s"]) }.first(MAX_THREADS)
        kept = threads & busiest
        {"processes" => files.size, "threads" => kept, "omitted_threads" => threads.size - kept.size}
      end

      # One process's events => [{pid, tid, name, running_s, gc_s, wants_gvl_s, waiting_s}], by thread id.
      # Each "B" event starts a state that the next "E" of the same thread ends; times are microseconds.
      def threads(events)
        names = {}
        open = {}
        totals = Hash.new { |h, k| h[k] = PARTS.to_h { |part| [part, 0.0] } }
        events.each do |e|
          key = [e["pid"], e["tid"]]
          case e["ph"]
          when "M" then names[key] = e.dig("args", "name") if e["name"] == "thread_name"
          when "B" then open[key] = [e["name"], e["ts"].to_f]
          when "E"
            state, since = open.delete(key)
            part = STATES[state]
            totals[key][part] += (e["ts"].to_f - since) / 1e6 if part
          end
        end
        totals.sort_by { |(pid, tid), _| [pid.to_i, tid.to_i] }.map do |(pid, tid), parts|
          {"pid" => pid, "tid" => tid, "name" => names[[pid, tid]] || "thread #{tid}"}.merge(parts.transform_values { |s| s.round(6) })
        end
      end
    end
  end
end

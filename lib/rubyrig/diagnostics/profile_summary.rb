# Adds up the frame counts every profiled process of a batch wrote (<profiler>-<pid>.frames.json) into
# one table of frames with their self and total share of samples, kept in the trial for the report.
require "json"

module Rubyrig
  module Diagnostics
    module ProfileSummary
      TOP_FRAMES = 60

      module_function

      def collect(dir)
        files = Dir.glob(File.join(dir, "*.frames.json"))
        return nil if files.empty?
        profiles = files.map { |f| Processes::TextFile.json(f) }
        samples = profiles.sum { |p| p["samples"].to_i }
        return nil if samples.zero?
        frames = Hash.new { |h, k| h[k] = {"self" => 0, "total" => 0} }
        profiles.flat_map { |p| p["frames"] }.each do |f|
          frames[f["name"]]["self"] += f["self"].to_i
          frames[f["name"]]["total"] += f["total"].to_i
        end
        # A recursive frame counts once per level in stackprof's totals; a share above 1 would mislead.
        top = frames.sort_by { |_, v| -v["total"] }.first(TOP_FRAMES).map do |name, v|
          {"name" => name, "self_share" => v["self"].to_f / samples, "total_share" => [v["total"].to_f / samples, 1.0].min}
        end
        {"profiler" => profiles.first["profiler"], "samples" => samples, "processes" => profiles.size, "frames" => top}
      end
    end
  end
end

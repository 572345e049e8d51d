# The flame-graph comparison of seed 000 as tables: for each workload and parameters, every runtime's
# top frames by self time side by side, and the frames whose share of samples (inclusive) grew most
# from the baseline to each runtime. Pure: reads the profile summaries kept in the trials.
module Rubyrig
  class Analysis
    class ProfileComparison
      TOP = 10
      GROWTH = 5

      # Profiles of one workload and parameter combination, one per runtime (label => summary).
      Group = Struct.new(:workload, :params, :profiles, :top, :growth, keyword_init: true)

      def initialize(report)
        @report = report
      end

      def groups
        trials = @report.trials.select { |t| t.diagnostic == "profile" && t.ok? && t.samples&.dig("profile") }
        trials.group_by { |t| [t.workload, t.params] }.map do |(workload, params), list|
          profiles = list.sort_by { |t| (t.runtime == @report.baseline) ? 0 : 1 }.to_h { |t| [t.runtime, t.samples["profile"]] }
          Group.new(workload: workload, params: params, profiles: profiles,
            top: profiles.transform_values { |p| top_frames(p) }, growth: growth(profiles))
        end
      end

      private

      def top_frames(profile)
        profile["frames"].select { |f| f["self_share"].positive? }.sort_by { |f| -f["self_share"] }.first(TOP)
      end

      # runtime => [{name, baseline_share, share, delta}], for every runtime but the baseline.
      def growth(profiles)
        base = profiles[@report.baseline]
        return {} unless base
        base_shares = base["frames"].to_h { |f| [f["name"], f["total_share"]] }
        profiles.except(@report.baseline).transform_values do |profile|
          profile["frames"].map do |f|
            before = base_shares.fetch(f["name"], 0.0)
            {"name" => f["name"], "baseline_share" => before, "share" => f["total_share"], "delta" => f["total_share"] - before}
          end.sort_by { |row| -row["delta"] }.first(GROWTH).select { |row| row["delta"].positive? }
        end
      end
    end
  end
end

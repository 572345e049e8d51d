# Each runtime's gem set for each Gemfile, as run.json recorded it when the run started: the notable
# gems it resolved (which Sidekiq, Rails or Puma that runtime got), its lockfile's digest, and for an
# app's own Gemfile.lock whether the runtime used it as it is or needed its own resolution (why, and
# both digests). Pure: no I/O.
module Rubyrig
  class Analysis
    module GemSets
      Row = Struct.new(:runtime, :gemfile, :gems, :lockfile_sha256, :source_lockfile, :source_lockfile_sha256,
        :resolution, :resolution_reason, :added_only, keyword_init: true) do
        def re_resolved? = resolution == "re-resolved"

        # "sidekiq 7.3.10, redis-client 0.31.0"
        def gems_text = gems.map { |name, version| "#{name} #{version}" }.join(", ")

        # What the row says about the lockfile, e.g. "the app's Gemfile.lock as it is (sha256 1a2b3c4d5e6f)".
        def lockfile_text
          short = ->(sha) { sha ? sha[0, 12] : "n/a" }
          case resolution
          when "as-is" then "the app's Gemfile.lock as it is (sha256 #{short.call(source_lockfile_sha256)})"
          when "re-resolved"
            "its own resolution (sha256 #{short.call(lockfile_sha256)}), not the app's Gemfile.lock " \
              "(sha256 #{short.call(source_lockfile_sha256)}): #{resolution_reason}"
          else "its own lockfile (sha256 #{short.call(lockfile_sha256)})"
          end
        end

        def to_h = super.transform_keys(&:to_s)
      end

      module_function

      # run: the RunMeta.
      def of(run)
        run.bundles.map do |b|
          Row.new(runtime: b["runtime"], gemfile: b["gemfile"], gems: b["gems"] || {}, lockfile_sha256: b["lockfile_sha256"],
            source_lockfile: b["source_lockfile"], source_lockfile_sha256: b["source_lockfile_sha256"],
            resolution: b["resolution"], resolution_reason: b["resolution_reason"], added_only: b["added_only"] == true).freeze
        end
      end

      # One warning per runtime that could not use an app's lockfile as it is; none where rubyrig only
      # added gems (Puma) and bundler kept every locked version, since versions cannot differ then.
      def warnings(rows)
        rows.select(&:re_resolved?).reject(&:added_only).map do |r|
          "#{r.runtime} did not use #{r.source_lockfile} as it is (#{r.resolution_reason}); its gem set is its own resolution " \
            "(lockfile sha256 #{r.lockfile_sha256.to_s[0, 12]}, the app's #{r.source_lockfile_sha256.to_s[0, 12]}), so gem versions may differ between runtimes"
        end
      end
    end
  end
end

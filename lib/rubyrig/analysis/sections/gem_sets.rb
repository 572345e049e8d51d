# The gem sets section: each runtime's gem set for each Gemfile, as run.json recorded it (GemSets).
module Rubyrig
  class Analysis
    module Sections
      module GemSets
        COLUMNS = [[:runtime, "runtime", "code"], [:workload, "Gemfile", "text"], [:gems, "gems", "text"],
          [:lockfile, "lockfile", "text"]].freeze

        module_function

        def section(report)
          rows = report.gem_sets.to_a.map do |g|
            {runtime: g.runtime, workload: gemfile(g.gemfile), gems: g.gems_text, lockfile: g.lockfile_text}
          end
          table = Section.table(name: "gem_set", title: "Gem sets", description: "each runtime's own, installed by its bundler",
            columns: COLUMNS, rows: rows)
          Section.of(name: "gem_sets", title: "Gem sets", data: {"gem_sets" => report.gem_sets.to_a.map(&:to_h)},
            tables: rows.empty? ? [] : [table])
        end

        # A Gemfile by its folder: "/x/workloads/sidekiq-noop/Gemfile" => "sidekiq-noop/Gemfile".
        def gemfile(path) = path ? File.join(File.basename(File.dirname(path)), File.basename(path)) : "n/a"
      end
    end
  end
end

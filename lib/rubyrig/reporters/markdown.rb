# Renders a report as Markdown ready to paste into a Ruby bug report: environment, how to reproduce,
# one table per workload with medians, ratios with the intervals decided on, corrected p-values,
# verdicts and what would decide the inconclusive ones, the other sections, and the numbers of the
# HTML report's pictures as tables. Every value from the data goes through MarkdownText.
require "shellwords"
require "psych"

module Rubyrig
  module Reporters
    class Markdown
      include MarkdownText

      def initialize(report)
        @report = report
      end

      def render
        run = @report.run
        out = ["## rubyrig: #{text(run.name)}", ""]
        out.concat(environment(run))
        out.concat(reproduce(run))
        @report.groups.group_by(&:first).each do |workload, groups|
          out.concat(workload_table(workload, groups))
        end
        out.concat(HttpSection.new(@report.http).markdown)
        @report.sweeps.each { |table| out.concat(scaling_table(table)) }
        out.concat(yjit_memory(@report.yjit_memory)) unless @report.yjit_memory.empty?
        FigureTables.new(@report).all.each { |t| out.concat(figure_table(t)) }
        @report.profiles.each { |group| out.concat(profiles(group)) }
        out.concat(traces)
        unless @report.warnings.empty?
          out << "**Warnings**"
          out << ""
          @report.warnings.each { |w| out << "- #{text(w)}" }
          out << ""
        end
        out.join("\n")
      end

      private

      def environment(run)
        lines = ["**Environment**", ""]
        run.hosts.each do |id, host|
          shard = run.shards.find { |s| s["host_id"] == id }
          where = run.merged? ? "Host #{code(id)}#{" (shard #{text(shard["index"])}/#{text(shard["count"])})" if shard}" : "Host"
          lines << "- #{where}: #{text(host["cpu_model"])}, #{text(host["cores"])} cores, Linux #{text(host["kernel"])}, governor #{text(host["governor"])}, turbo #{text(host["turbo"])}"
        end
        run.runtimes.each do |label, r|
          extras = []
          extras << "flags #{code(r["ruby_flags"].join(" "))}" unless r["ruby_flags"].to_a.empty?
          env = r["env"].to_h.reject { |_, v| v.nil? }
          extras << "env #{code(env.map { |k, v| "#{k}=#{v}" }.join(" "))}" unless env.empty?
          lines << "- #{code(label)}: #{text(r.dig("interpreter", "description"))}#{" (#{extras.join(", ")})" unless extras.empty?}"
        end
        lines << "- #{run.batch_count} batches in a randomized interleaved order (seed #{text(run.seed)}), rubyrig #{text(run.rubyrig_version)}"
        @report.gem_sets.to_a.each do |g|
          gems = g.gems_text.empty? ? "" : "#{text(g.gems_text)}; "
          lines << "- Gem set of #{code(g.runtime)} for #{text(Format.gemfile(g.gemfile))}: #{gems}#{text(g.lockfile_text)}"
        end
        lines << ""
        lines
      end

      def reproduce(run)
        lines = ["**Reproduce**", "", *fence(Shellwords.join(run.command_line.map(&:to_s)), "sh"), ""]
        experiment = run.experiment
        if experiment && run.command == "run"
          lines << "<details><summary>experiment file</summary>"
          lines << ""
          lines.concat(fence(Psych.dump(experiment).sub(/\A---\n/, "").rstrip, "yaml"))
          lines << ""
          lines << "</details>"
          lines << ""
        end
        lines
      end

      def workload_table(workload, groups)
        primary = @report.primary_metric(workload)
        definition = Metrics.fetch(primary)
        memory = Metrics.fetch("peak_rss_bytes")
        compared = groups.flat_map { |_, _, cells| cells.filter_map { |c| @report.comparison(c.runtime, c.workload, c.params, primary) } }
        method = Format.method_line(compared, code(@report.baseline))
        lines = ["**#{text(workload)}**: #{definition.label} (#{definition.higher_is_better ? "higher" : "lower"} is better)" \
          "#{"; #{method}; p corrected the same way" if method}", ""]
        lines << "| params | runtime | n | median | CV | ratio [interval] | p | verdict | peak RSS | RSS ratio |"
        lines << "|---|---|--:|--:|--:|---|--:|---|--:|---|"
        groups.each do |_, params, cells|
          cells.each do |cell|
            s = @report.summary(cell.key, primary)
            c = @report.comparison(cell.runtime, cell.workload, cell.params, primary)
            rss = @report.summary(cell.key, memory.name)
            rc = @report.comparison(cell.runtime, cell.workload, cell.params, memory.name)
            # A cell without the primary metric (a benchmark-ips file's whole process) still counts its batches.
            n = s&.n || rss&.n || 0
            lines << "| #{text(Format.params(params))} | #{code(cell.runtime, table: true)} | #{n} | #{Format.value(s&.median, definition.unit)} | " \
              "#{Format.percent(s&.cv)} | #{ratio_cell(cell, c)} | #{Format.p_value(c.p_adjusted) if c} | " \
              "#{c&.verdict || ""} | #{Format.bytes(rss&.median)} | #{"#{Format.ratio(rc.ratio)} #{Format.ci(rc.ci)}" if rc} |"
          end
        end
        lines << ""
        reasons = compared.select(&:reason)
        reasons.each { |c| lines << "- #{code(c.runtime)}#{" (#{text(Format.params(c.params))})" unless c.params.empty?}: #{c.verdict}: #{text(c.reason)}" }
        lines << "" unless reasons.empty?
        lines.concat(host_table(compared.select(&:hosts)))
      end

      # Each host's ratio beside the combined one above, and whether the hosts agree.
      def host_table(compared)
        return [] if compared.empty?
        lines = ["Per host (each runtime against #{code(@report.baseline)} on the same host; the table above combines them):", "",
          "| params | runtime | host | n | ratio [interval] |", "|---|---|---|--:|---|"]
        compared.each do |c|
          c.hosts.each do |h|
            lines << "| #{text(Format.params(c.params))} | #{code(c.runtime, table: true)} | #{code(h.host, table: true)} | #{h.n}/#{h.baseline_n} | #{text(Format.host_ratio(h))} |"
          end
        end
        lines << ""
        compared.each { |c| lines << "- #{code(c.runtime)}#{" (#{text(Format.params(c.params))})" unless c.params.empty?}: #{text(Format.heterogeneity(c.heterogeneity))}" }
        lines << ""
        lines
      end

      def scaling_table(table)
        unit = Metrics.fetch(table.metric).unit
        fixed = Format.params(table.fixed)
        lines = ["**Sweep over #{text(table.param)}**: #{text(table.workload)}#{" (#{text(fixed)})" unless fixed.empty?}, " \
          "#{Metrics.fetch(table.metric).label}, ratio to #{text(table.param)}=#{text(table.rows.first.value)} of the same runtime with the interval, corrected p and verdict of the same method", ""]
        lines << "| #{text(table.param)} | #{table.runtimes.map { |r| code(r, table: true) }.join(" | ")} |"
        lines << "|--:|#{"---|" * table.runtimes.size}"
        table.rows.each do |row|
          cells = table.runtimes.map do |runtime|
            point = row.cells[runtime]
            next "n/a" unless point.median
            next Format.value(point.median, unit) unless point.ratio
            "#{Format.value(point.median, unit)} (#{Format.ratio(point.ratio)} #{Format.ci(point.ci)}, p=#{Format.p_value(point.p_adjusted)}, #{point.verdict})"
          end
          lines << "| #{text(row.value)} | #{cells.join(" | ")} |"
        end
        lines << ""
        lines
      end

      def yjit_memory(rows)
        lines = ["**YJIT memory against speed**", "", "| yjit-mem | workload | speed | peak RSS | code region | YJIT alloc |", "|--:|---|--:|--:|--:|--:|"]
        rows.each do |r|
          lines << "| #{r.yjit_mem} MiB | #{text([r.workload, Format.params(r.params)].reject(&:empty?).join(" "))} | " \
            "#{Format.value(r.speed, Metrics.fetch(r.metric).unit)} | #{Format.bytes(r.peak_rss_bytes)} | " \
            "#{Format.bytes(r.code_region_bytes)} | #{Format.bytes(r.yjit_alloc_bytes)} |"
        end
        lines << ""
        lines
      end

      def figure_table(table)
        align = table.header.each_index.map { |i| table.numeric.include?(i) ? "--:" : "---" }
        ["**#{text(table.title)}**", "", "| #{table.header.map { |h| text(h) }.join(" | ")} |", "|#{align.join("|")}|"] +
          table.rows.map { |row| "| #{row.map { |v| text(v) }.join(" | ")} |" } + [""]
      end

      def profiles(group)
        runtimes = group.profiles.keys
        title = [group.workload, Format.params(group.params)].reject(&:empty?).join(", ")
        lines = ["**Profiles** (#{text(group.profiles.values.first["profiler"])}): #{text(title)}, top frames by self time", ""]
        lines << "| # | #{runtimes.map { |r| code(r, table: true) }.join(" | ")} |"
        lines << "|--:|#{"---|" * runtimes.size}"
        depth = group.top.values.map(&:size).max.to_i
        (0...depth).each do |i|
          cells = runtimes.map do |r|
            f = group.top[r][i]
            f ? "#{Format.percent(f["self_share"])} #{code(f["name"], table: true)}" : ""
          end
          lines << "| #{i + 1} | #{cells.join(" | ")} |"
        end
        lines << ""
        group.growth.each do |runtime, frames|
          next if frames.empty?
          lines << "Frames whose share of samples (inclusive) grew most from #{code(@report.baseline)} to #{code(runtime)}:"
          lines << ""
          frames.each do |f|
            lines << format("- %s: %.1f%% → %.1f%% (%+.1f points)", code(f["name"]), f["baseline_share"] * 100, f["share"] * 100, f["delta"] * 100)
          end
          lines << ""
        end
        lines
      end

      def traces
        return [] if @report.traces.empty?
        lines = ["**GVL traces**: open each file at https://ui.perfetto.dev (Open trace file)", ""]
        @report.traces.each { |t| t.files.each { |f| lines << "- #{text(t.cell_key)}: #{code(f)}" } }
        lines << ""
        lines
      end

      def ratio_cell(cell, comparison)
        return "baseline" if cell.runtime == @report.baseline
        comparison&.ratio ? "#{Format.ratio(comparison.ratio)} #{Format.ci(comparison.ci)}" : "n/a"
      end
    end
  end
end

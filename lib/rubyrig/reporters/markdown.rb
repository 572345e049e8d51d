# Renders a report as Markdown ready to paste into a Ruby bug report: environment, how to reproduce,
# one table per workload with medians, ratios with the intervals decided on, corrected p-values,
# verdicts and what would decide the inconclusive ones, the one-line answer of what accounts for each
# decided difference, then every section's tables (Analysis::Section).
# Every value from the data goes through MarkdownText.
require "shellwords"
require "psych"

module Rubyrig
  module Reporters
    class Markdown
      include MarkdownText

      # Units whose columns hold numbers (right-aligned).
      NUMERIC = %w[s B 1/s fraction µs pp count p].push("").freeze

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
        @report.shown_sections.flat_map(&:tables).each { |table| out.concat(section_table(table)) }
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
        definition = @report.metric(primary)
        memory = @report.metric("peak_rss_bytes")
        compared = groups.flat_map { |_, _, cells| cells.filter_map { |c| @report.comparison(c.runtime, c.workload, c.params, primary) } }
        method = Analysis::Section.method_line(compared, code(@report.baseline))
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
        lines.concat(why(groups))
        lines.concat(host_table(compared.select(&:hosts)))
      end

      # The one-line answer of each decided difference of these cells (Analysis::Why).
      def why(groups)
        keys = groups.flat_map { |_, _, cells| cells.map(&:key) }
        lines = @report.why.to_a.select { |e| keys.include?(e.cell) }.map { |e| "- **Why**, #{code(e.runtime)}#{" (#{text(Format.params(e.comparison.params))})" unless e.comparison.params.empty?}: #{text(e.line)}" }
        lines.empty? ? [] : lines + [""]
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

      # Any section's table: its title (and description), a Markdown table, then its notes as a list.
      def section_table(table)
        align = table.columns.map { |c| NUMERIC.include?(c.unit) ? "--:" : "---" }
        rows = table.rows.map { |row| "| #{table.columns.map { |c| section_cell(row[c.key], c.unit) }.join(" | ")} |" }
        notes = table.notes.map { |note| "- #{text(note)}" }
        ["**#{text(table.title)}**#{": #{text(table.description)}" if table.description}", "",
          "| #{table.columns.map { |c| text(c.label) }.join(" | ")} |", "|#{align.join("|")}|", *rows, ""] + (notes.empty? ? [] : notes + [""])
      end

      def section_cell(value, unit)
        return code(value, table: true) if %w[code path].include?(unit) && value
        shown = Format.cell(value, unit, code: ->(name) { code(name, table: true) })
        (unit == "share") ? shown : text(shown)
      end

      def ratio_cell(cell, comparison)
        return "baseline" if cell.runtime == @report.baseline
        comparison&.ratio ? "#{Format.ratio(comparison.ratio)} #{Format.ci(comparison.ci)}" : "n/a"
      end
    end
  end
end

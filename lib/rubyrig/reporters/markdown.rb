# Renders a report as Markdown ready to paste into a Ruby bug report: environment, how to reproduce,
# and one table per workload with medians, ratios, 95% CIs, adjusted p-values and verdicts.
require "shellwords"
require "psych"

module Rubyrig
  module Reporters
    class Markdown
      def initialize(report)
        @report = report
      end

      def render
        meta = @report.meta
        out = ["## rubyrig: #{meta["name"]}", ""]
        out.concat(environment(meta))
        out.concat(reproduce(meta))
        @report.groups.group_by(&:first).each do |workload, groups|
          out.concat(workload_table(workload, groups))
        end
        out.concat(HttpSection.new(@report).markdown)
        unless @report.warnings.empty?
          out << "**Warnings**"
          out << ""
          @report.warnings.each { |w| out << "- #{w}" }
          out << ""
        end
        out.join("\n")
      end

      private

      def environment(meta)
        host = meta["host"] || {}
        lines = ["**Environment**", ""]
        lines << "- Host: #{host["cpu_model"]}, #{host["cores"]} cores, Linux #{host["kernel"]}, governor #{host["governor"]}, turbo #{host["turbo"]}"
        (meta["runtimes"] || {}).each do |label, r|
          extras = []
          extras << "flags `#{r["ruby_flags"].join(" ")}`" unless r["ruby_flags"].to_a.empty?
          env = r["env"].to_h.reject { |_, v| v.nil? }
          extras << "env `#{env.map { |k, v| "#{k}=#{v}" }.join(" ")}`" unless env.empty?
          lines << "- `#{label}`: #{r.dig("interpreter", "description")}#{" (#{extras.join(", ")})" unless extras.empty?}"
        end
        lines << "- #{meta.dig("plan", "order").to_a.size} batches in a randomized interleaved order (seed #{meta.dig("plan", "seed")}), rubyrig #{meta["rubyrig_version"]}"
        lines << ""
        lines
      end

      def reproduce(meta)
        lines = ["**Reproduce**", "", "```sh", Shellwords.join(Array(meta["command_line"])), "```", ""]
        experiment = meta["experiment"]
        if experiment && Array(meta["command_line"]).include?("run")
          lines << "<details><summary>experiment file</summary>"
          lines << ""
          lines << "```yaml"
          lines << Psych.dump(experiment).sub(/\A---\n/, "").rstrip
          lines << "```"
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
        lines = ["**#{workload}**: #{definition.label} (#{definition.higher_is_better ? "higher" : "lower"} is better), " \
          "ratio to `#{@report.baseline}` with 95% bootstrap CI, p-value Holm-adjusted", ""]
        lines << "| params | runtime | n | median | CV | ratio [95% CI] | p | verdict | peak RSS | RSS ratio |"
        lines << "|---|---|--:|--:|--:|---|--:|---|--:|---|"
        groups.each do |_, params, cells|
          cells.each do |cell|
            s = @report.summary(cell.key, primary)
            c = @report.comparison(cell.runtime, cell.workload, cell.params, primary)
            rss = @report.summary(cell.key, memory.name)
            rc = @report.comparison(cell.runtime, cell.workload, cell.params, memory.name)
            lines << "| #{Format.params(params)} | `#{cell.runtime}` | #{s&.n || 0} | #{Format.value(s&.median, definition.unit)} | " \
              "#{Format.percent(s&.cv)} | #{ratio_cell(cell, c)} | #{Format.p_value(c.p_adjusted) if c} | " \
              "#{c&.verdict || ""} | #{Format.bytes(rss&.median)} | #{"#{Format.ratio(rc.ratio)} #{Format.ci(rc.ci)}" if rc} |"
          end
        end
        lines << ""
        lines
      end

      def ratio_cell(cell, comparison)
        return "baseline" if cell.runtime == @report.baseline
        comparison ? "#{Format.ratio(comparison.ratio)} #{Format.ci(comparison.ci)}" : "n/a"
      end
    end
  end
end

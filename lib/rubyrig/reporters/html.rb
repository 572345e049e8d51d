# Renders a report as one self-contained HTML page (inline CSS and SVG, no scripts, nothing fetched):
# verdict forest plots, per-cell distributions with their tables, then every section (HtmlSections:
# HTTP latency curves, errors per batch, jobs timelines, sweeps with interval bands and grids, memory
# against speed, the GVL by thread next to the Perfetto traces, profiles as bars...), warnings and the
# environment. Every picture comes with its numbers (a table, and a tooltip on each mark). Written next
# to the run as report.html.
require "shellwords"

module Rubyrig
  module Reporters
    class Html
      STYLE = <<~CSS
        body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1120px; color: #222; padding: 0 1rem; }
        h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.4rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
        h3 { margin-top: 1.6rem; } h4 { margin: 1rem 0 .3rem; font-size: 1rem; }
        table { border-collapse: collapse; margin: .6rem 0 1rem; }
        th, td { padding: .25rem .6rem; border-bottom: 1px solid #eee; text-align: left; vertical-align: middle; }
        th { font-weight: 600; } td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        td.label { overflow-wrap: anywhere; min-width: 9rem; max-width: 22rem; } td.verdict-cell { min-width: 7rem; max-width: 16rem; overflow-wrap: anywhere; } td.frame { min-width: 12rem; max-width: 18rem; font-size: 90%; }
        td.lane, th.lane { padding: 0 .3rem; } td.lane svg, th.lane svg { max-width: none; } table.lanes td { border-bottom: 1px solid #f2f2f2; }
        .ci { display: block; color: #666; font-size: 85%; }
        .muted { color: #666; } code { font-size: 90%; overflow-wrap: anywhere; }
        .verdict { font-weight: 600; } td.where { min-width: 14rem; } .v-equivalent, .v-inconclusive, .v-no-significant-difference, .v-not-compared { font-weight: 400; }
        .v-inconclusive, .v-no-significant-difference, .v-not-compared { font-style: italic; }
        .warn { background: #fff7e0; border-left: 4px solid #e0a800; padding: .5rem 1rem; }
        figure.chart { margin: 1rem 0 1.6rem; } figcaption { color: #444; margin: .3rem 0; max-width: 60rem; }
        svg { display: block; max-width: 100%; height: auto; } svg text { font-weight: 400; } svg.swatch { display: inline-block; vertical-align: middle; }
        ul.legend { list-style: none; padding: 0; margin: .3rem 0; display: flex; flex-wrap: wrap; gap: .3rem 1.4rem; }
        .side-by-side { display: grid; grid-template-columns: repeat(auto-fit, minmax(30rem, 1fr)); gap: 0 2rem; }
        .grids { display: flex; flex-wrap: wrap; gap: .5rem 2rem; } .grids h4 { margin: .4rem 0 0; }
        .grew { color: #b34700; font-weight: 600; } tr.grew-row td.frame code { font-weight: 600; }
        nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .2rem 1.2rem; }
        details > summary { cursor: pointer; color: #333; }
      CSS

      # The patterns charts refer to, defined once for the page.
      DEFS = <<~SVG.delete("\n")
        <svg class="defs" width="0" height="0" style="position:absolute" aria-hidden="true"><defs>
        <pattern id="rubyrig-hatch" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="5" height="5" fill="#f6c9a8"/><line x1="0" y1="0" x2="0" y2="5" stroke="#d95f02" stroke-width="2.4"/></pattern></defs></svg>
      SVG

      # A verdict word in its style, after its glyph (its shape in the plots) unless glyph: false.
      def self.verdict_html(word, glyph: true)
        return "" unless word
        style = Svg.verdict_style(word)
        %(<span class="verdict v-#{Svg.esc(word.tr(" ", "-"))}" style="color:#{style.color}">#{"#{style.glyph} " if glyph}#{Svg.esc(word)}</span>)
      end

      # A value with its interval below it, so that tables stay narrow: "12.00/s" over "[11.80/s, 12.10/s]".
      def self.value_html(text)
        value, interval = text.split(" [", 2)
        interval ? %(#{Svg.esc(value)}<span class="ci">[#{Svg.esc(interval)}</span>) : Svg.esc(text)
      end

      # The runtimes' colours, markers and dashes, as a list below a chart.
      def self.legend(runtimes, styles)
        items = runtimes.map { |r| %(<li>#{Svg.swatch(styles.fetch(r))} <code>#{Svg.esc(r)}</code></li>) }
        %(<ul class="legend">#{items.join}</ul>)
      end

      def initialize(report)
        @report = report
        @figures = report.figures
        labels = (report.run.runtimes.keys + report.cells.map(&:runtime)).uniq
        @styles = labels.each_with_index.to_h { |label, i| [label, Svg.runtime_style(i)] }
        @sections = HtmlSections.new(report, @styles)
      end

      def render
        run = @report.run
        sections = {"verdicts" => ["Verdicts", verdicts], "cells" => ["Batches per cell", groups]}
        @report.shown_sections.each { |s| sections[s.name] = [s.title, @sections.section(s)] }
        sections["warnings"] = ["Warnings", warnings]
        shown = sections.reject { |_, (_, html)| html.empty? }
        nav = shown.map { |id, (title, _)| %(<li><a href="##{esc(id)}">#{esc(title)}</a></li>) }
        body = shown.map { |id, (_, html)| %(<section id="#{esc(id)}">#{html}</section>) }
        <<~HTML
          <!DOCTYPE html>
          <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>rubyrig: #{esc(run.name)}</title>
          <style>#{STYLE}</style></head><body>
          #{DEFS}
          #{header(run)}
          <nav><ul>#{nav.join}<li><a href="#environment">Environment</a></li></ul></nav>
          #{body.join("\n")}
          #{environment(run)}
          </body></html>
        HTML
      end

      private

      def esc(text) = Svg.esc(text)

      def header(run)
        batches = @report.measured_trials.size
        failed = @report.failed_trials.size
        <<~HTML
          <h1>rubyrig: #{esc(run.name)}</h1>
          <p class="muted">#{esc(run.created_at)} · baseline <code>#{esc(@report.baseline)}</code> · #{batches} measured batches#{", #{failed} failed" if failed.positive?} · seed #{esc(run.seed)} · rubyrig #{esc(run.rubyrig_version)}</p>
        HTML
      end

      def verdicts
        return "" if @figures.verdicts.empty?
        words = Analysis::Verdict::ALL.select { |w| @figures.verdicts.any? { |p| p.rows.any? { |r| r.verdict == w } } }
        words |= [Analysis::Verdict::FASTER, Analysis::Verdict::SLOWER, Analysis::Verdict::EQUIVALENT, Analysis::Verdict::INCONCLUSIVE]
        words = words.sort_by { |w| Analysis::Verdict::ALL.index(w) }
        legend = words.map do |w|
          style = Svg.verdict_style(w)
          %(<li>#{Svg.swatch(style, line: false)} #{Html.verdict_html(w, glyph: false)}</li>)
        end
        "<h2>Verdicts</h2><p>Against the baseline <code>#{esc(@report.baseline)}</code>; each marker's colour and shape give its verdict:</p>" +
          %(<ul class="legend">#{legend.join}</ul>#{@figures.verdicts.map { |p| Charts::Forest.render(p) }.join})
      end

      def groups
        @report.groups.map do |workload, params, cells|
          title = [workload, Format.params(params)].reject(&:empty?).join(" · ")
          primary = @report.table_metric(workload, cells)
          plot = @figures.distributions.find { |d| d.workload == workload && d.params == params }
          tables = ([primary] + @report.metrics.headline(primary)).filter_map { |m| metric_table(cells, m) }
          "<h2>#{esc(title)}</h2>#{Charts::Distribution.render(plot, @styles) if plot}#{tables.first}#{host_table(cells, primary)}#{tables.drop(1).join}"
        end.join
      end

      def metric_table(cells, metric)
        definition = @report.metric(metric)
        rows = cells.filter_map do |cell|
          s = @report.summary(cell.key, metric)
          next unless s
          c = @report.comparison(cell.runtime, cell.workload, cell.params, metric)
          compared = if cell.runtime == @report.baseline
            "<td>baseline</td><td></td><td></td>"
          elsif c&.ratio
            "<td class=\"num\">#{Format.ratio(c.ratio)} #{Format.ci(c.ci)}</td><td class=\"num\">#{Format.p_value(c.p_adjusted)}</td><td>#{Html.verdict_html(c.verdict)}</td>"
          else
            "<td></td><td></td><td>#{Html.verdict_html(c&.verdict)}</td>"
          end
          "<tr><td class=\"label\"><code>#{esc(cell.runtime)}</code></td><td class=\"num\">#{s.n}</td><td class=\"num\">#{Format.value(s.median, definition.unit)}</td>" \
            "<td class=\"num\">#{Format.value(s.sd, definition.unit) if s.sd}</td><td class=\"num\">#{Format.percent(s.cv)}</td>#{compared}</tr>"
        end
        return nil if rows.empty?
        direction = definition.higher_is_better ? "higher is better" : "lower is better"
        "<h3>#{esc(definition.label)} <span class=\"muted\">(#{direction})</span></h3><table><tr><th>runtime</th><th>n</th><th>median</th><th>sd</th><th>CV</th><th>ratio [interval]</th><th>p (corrected)</th><th>verdict</th></tr>#{rows.join}</table>"
      end

      # Each host's ratio beside the combined one, and whether the hosts agree (merged runs only).
      def host_table(cells, metric)
        compared = cells.filter_map { |c| @report.comparison(c.runtime, c.workload, c.params, metric) }.select(&:hosts)
        return "" if compared.empty?
        rows = compared.flat_map do |c|
          c.hosts.map do |h|
            "<tr><td class=\"label\"><code>#{esc(c.runtime)}</code></td><td class=\"label\"><code>#{esc(h.host)}</code></td>" \
              "<td class=\"num\">#{h.n}/#{h.baseline_n}</td><td class=\"num\">#{esc(Format.host_ratio(h))}</td></tr>"
          end
        end
        agreement = compared.map { |c| "<li><code>#{esc(c.runtime)}</code>: #{esc(Format.heterogeneity(c.heterogeneity))}</li>" }
        "<h3>By host <span class=\"muted\">(each runtime against <code>#{esc(@report.baseline)}</code> on the same host; the table above combines them)</span></h3>" \
          "<table><tr><th>runtime</th><th>host</th><th>n</th><th>ratio [interval]</th></tr>#{rows.join}</table><ul>#{agreement.join}</ul>"
      end

      def warnings
        return "" if @report.warnings.empty?
        "<h2>Warnings</h2><div class=\"warn\"><ul>#{@report.warnings.map { |w| "<li>#{esc(w)}</li>" }.join}</ul></div>"
      end

      def environment(run)
        host = run.host
        runtimes = run.runtimes.map do |label, r|
          extras = [r["ruby_flags"].to_a.join(" "), r["env"].to_h.compact.map { |k, v| "#{k}=#{v}" }.join(" ")].reject(&:empty?).join(" · ")
          "<tr><td class=\"label\"><code>#{esc(label)}</code></td><td>#{esc(r.dig("interpreter", "description"))}</td><td><code>#{esc(extras)}</code></td></tr>"
        end
        <<~HTML
          <section id="environment"><h2>Environment</h2>
          <p>#{esc(host["cpu_model"])}, #{esc(host["cores"])} cores, Linux #{esc(host["kernel"])}, governor #{esc(host["governor"])}, turbo #{esc(host["turbo"])}, load before #{esc(Array(host["load_average"]).join(" "))}</p>
          <table><tr><th>runtime</th><th>interpreter</th><th>flags and environment</th></tr>#{runtimes.join}</table>
          <p>Reproduce: <code>#{esc(Shellwords.join(run.command_line))}</code></p></section>
        HTML
      end
    end
  end
end

# Renders a report as one self-contained HTML page (inline CSS and SVG, no scripts, nothing fetched):
# verdict forest plots, per-cell distributions with their tables, HTTP latency curves, errors per batch
# and throughput grids, jobs timelines, sweeps with interval bands, memory against speed, the GVL by
# thread next to the Perfetto traces, profiles as bars, warnings and the environment. Every picture
# comes with its numbers (a table, and a tooltip on each mark). Written next to the run as report.html.
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
        @tables = FigureTables.new(report)
        labels = (report.run.runtimes.keys + report.cells.map(&:runtime)).uniq
        @styles = labels.each_with_index.to_h { |label, i| [label, Svg.runtime_style(i)] }
      end

      def render
        run = @report.run
        sections = {"verdicts" => ["Verdicts", verdicts], "cells" => ["Batches per cell", groups], "http" => ["HTTP", http],
                    "jobs" => ["Jobs over time", jobs], "sweeps" => ["Sweeps", sweeps], "memory" => ["Memory against speed", memory],
                    "gvl" => ["GVL traces", traces], "profiles" => ["Profiles", profiles], "warnings" => ["Warnings", warnings]}
        shown = sections.reject { |_, (_, html)| html.empty? }
        nav = shown.map { |id, (title, _)| %(<li><a href="##{id}">#{title}</a></li>) }
        body = shown.map { |id, (_, html)| %(<section id="#{id}">#{html}</section>) }
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
          tables = ([primary] + Metrics.headline(primary)).filter_map { |m| metric_table(cells, m) }
          "<h2>#{esc(title)}</h2>#{Charts::Distribution.render(plot, @styles) if plot}#{tables.first}#{host_table(cells, primary)}#{tables.drop(1).join}"
        end.join
      end

      def metric_table(cells, metric)
        definition = Metrics.fetch(metric)
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

      # A FigureTables table as HTML.
      def table(t, caption: true)
        head = t.header.map { |h| "<th>#{esc(h)}</th>" }.join
        rows = t.rows.map do |row|
          cells = row.each_with_index.map { |v, i| t.numeric.include?(i) ? %(<td class="num">#{Html.value_html(v)}</td>) : %(<td class="label">#{esc(v)}</td>) }
          "<tr>#{cells.join}</tr>"
        end
        "#{"<h4>#{esc(t.title)}</h4>" if caption}<table><tr>#{head}</tr>#{rows.join}</table>"
      end

      def http
        derived = @report.http
        return "" if derived.empty? && @figures.latency.empty?
        latency = @figures.latency.zip(@tables.latency).map do |plot, t|
          %(<figure class="chart" data-figure="latency">#{Charts::Latency.render(plot, @styles)}#{Charts::Latency.legend(plot, @styles)}) +
            %(<figcaption>#{esc(t.title)}: the bold line joins the medians (whiskers: their 95% interval, from 6 batches on), faint lines are single batches; #{plot.axis.log ? "log" : "linear"} latency scale.</figcaption>#{table(t, caption: false)}</figure>)
        end
        errors = @figures.http_errors.zip(@tables.http_errors).map do |plot, t|
          %(<figure class="chart" data-figure="http-errors">#{Charts::Errors.render(plot, @styles)}#{Html.legend(plot.cells.map(&:runtime).uniq, @styles)}) +
            %(<figcaption>#{esc(t.title)}: every ok batch's errors (connect, read, write, timeouts and responses with status 400 or above).</figcaption>#{table(t, caption: false)}</figure>)
        end
        grids = @figures.grids.group_by { |g| [g.workload, g.fixed] }.zip(@tables.grids).map do |(_, plots), t|
          blocks = plots.map { |g| %(<div><h4><code>#{esc(g.runtime)}</code></h4>#{Charts::Grid.render(g)}</div>) }
          %(<figure class="chart" data-figure="grid"><figcaption>#{esc(t.title)}; the darker, the more (one scale from 0 for every runtime).</figcaption>) +
            %(<div class="grids">#{blocks.join}</div>#{table(t, caption: false)}</figure>)
        end
        ["<h2>HTTP</h2>", latency.join, errors.join, grids.join, http_tables(derived)].join
      end

      def http_tables(derived)
        return "" if derived.empty?
        cells = derived.cells.map do |d|
          m = d.medians
          label = [d.cell.runtime, d.cell.workload, Format.params(d.cell.params)].reject(&:empty?).join(" | ")
          "<tr><td class=\"label\"><code>#{esc(label)}</code></td><td class=\"num\">#{d.n}</td><td class=\"num\">#{d.with_errors}</td>" +
            %w[latency_p50_s latency_p99_s latency_p999_s].map { |k| "<td class=\"num\">#{Format.seconds(m[k])}</td>" }.join +
            "<td class=\"num\">#{Format.significant(m["error_count"])}</td><td class=\"num\">#{Format.seconds(m["boot_s"])}</td>" \
            "<td class=\"num\">#{Format.percent(m["server_cpu_fraction"])}</td><td class=\"num\">#{Format.percent(m["load_cpu_fraction"])}</td>" \
            "<td>#{esc(d.load_generator || "n/a")}</td></tr>"
        end
        html = "<h3>HTTP details</h3><p class=\"muted\">Medians over ok batches.</p><table><tr><th>cell</th><th>n</th><th>with errors</th>" \
          "<th>p50</th><th>p99</th><th>p99.9</th><th>errors</th><th>boot</th><th>server CPU</th><th>load CPU</th><th>measured by</th></tr>#{cells.join}</table>"
        unless derived.connection_modes.empty?
          rows = derived.connection_modes.map do |c|
            result = c.reason ? "<td>n/a</td><td></td><td class=\"verdict-cell\">#{Html.verdict_html(c.verdict)} #{esc(c.reason)}</td>" :
              "<td class=\"num\">#{Format.ratio(c.ratio)} #{Format.ci(c.ci)}</td><td class=\"num\">#{Format.p_value(c.p_adjusted)}</td><td>#{Html.verdict_html(c.verdict)}</td>"
            "<tr><td class=\"label\"><code>#{esc(c.runtime)}</code></td><td>#{esc(c.workload)}</td><td>#{esc(Format.params(c.params))}</td><td>#{esc(c.mode)}</td>#{result}</tr>"
          end
          html += "<h3>Connection modes</h3><p class=\"muted\">Requests/s of each mode against keepalive, the interval decided on, corrected p.</p>" \
            "<table><tr><th>runtime</th><th>workload</th><th>params</th><th>mode</th><th>ratio [interval]</th><th>p</th><th>verdict</th></tr>#{rows.join}</table>"
        end
        unless derived.rails_overhead.empty?
          micro = ->(s) { s.nil? ? "n/a" : format("%.0f µs", s * 1e6) }
          rows = derived.rails_overhead.map do |o|
            ci = o.ci ? format("[%.0f, %.0f] µs", o.ci[0] * 1e6, o.ci[1] * 1e6) : "[n/a]"
            "<tr><td class=\"label\"><code>#{esc(o.runtime)}</code></td><td>#{esc(Format.params(o.params))}</td><td class=\"num\">#{micro.call(o.overhead_s)} #{ci}</td>" \
              "<td class=\"num\">#{micro.call(o.rails_per_request_s)}</td><td class=\"num\">#{micro.call(o.rack_per_request_s)}</td></tr>"
          end
          html += "<h3>Rails overhead per request</h3><p class=\"muted\">1/rails − 1/rack requests/s, 95% Welch t interval over batches.</p>" \
            "<table><tr><th>runtime</th><th>params</th><th>overhead [95% CI]</th><th>Rails per request</th><th>Rack per request</th></tr>#{rows.join}</table>"
        end
        html
      end

      def jobs
        return "" if @figures.jobs.empty?
        "<h2>Jobs over time</h2>#{@figures.jobs.map { |plot| Charts::Jobs.render(plot, @styles) }.join}"
      end

      def sweeps
        @report.sweeps.zip(@figures.sweeps).map do |table, plot|
          unit = Metrics.fetch(table.metric).unit
          head = "<tr><th>#{esc(table.param)}</th>#{table.runtimes.map { |r| "<th><code>#{esc(r)}</code></th>" }.join}</tr>"
          body = table.rows.each_with_index.map do |row, i|
            cells = table.runtimes.map do |r|
              point = row.cells[r]
              band = plot.series[r][i].median_ci
              ratio = point.ratio ? "<span class=\"ci\">ratio #{Format.ratio(point.ratio)} #{Format.ci(point.ci)}</span>#{Html.verdict_html(point.verdict)}" : ""
              "<td class=\"num\">#{Html.value_html(Format.with_interval(point.median, band, unit))}#{ratio}</td>"
            end
            "<tr><td>#{esc(row.value)}</td>#{cells.join}</tr>"
          end
          fixed = Format.params(table.fixed)
          "<h2>Sweep over #{esc(table.param)} · #{esc(table.workload)}#{" · #{esc(fixed)}" unless fixed.empty?}</h2>" \
            "#{Charts::Sweep.render(plot, @styles) if plot.axis}" \
            "<p class=\"muted\">#{esc(Metrics.fetch(table.metric).label)}: median [95% CI of the median]; ratios to #{esc(table.param)}=#{esc(table.rows.first.value)} of the same runtime, with the interval decided on and the verdict.</p>" \
            "<table>#{head}#{body.join}</table>"
        end.join
      end

      def memory
        return "" if @figures.memory_speed.empty? && @report.yjit_memory.empty?
        plots = @figures.memory_speed.zip(@tables.memory_speed).map do |plot, t|
          %(<figure class="chart" data-figure="memory-speed"><h3>#{esc(plot.workload)}</h3>#{Charts::MemorySpeed.render(plot, @styles)}) +
            %(#{Html.legend(plot.points.map(&:runtime).uniq, @styles)}<figcaption>Peak RSS against #{esc(plot.label)} (#{plot.higher_is_better ? "higher" : "lower"} is better) per cell, medians with 95% intervals (whiskers, from 6 batches on); ) +
            %(numbers name the parameters#{"; the dashed line joins the +yjit-mem settings in order" unless plot.lines.empty?}.</figcaption>#{table(t, caption: false)}</figure>)
        end
        "<h2>Memory against speed</h2>#{plots.join}#{yjit_memory}"
      end

      def yjit_memory
        rows = @report.yjit_memory
        return "" if rows.empty?
        body = rows.map do |r|
          "<tr><td class=\"num\">#{r.yjit_mem} MiB</td><td>#{esc([r.workload, Format.params(r.params)].reject(&:empty?).join(" "))}</td>" \
            "<td class=\"num\">#{Format.value(r.speed, Metrics.fetch(r.metric).unit)}</td><td class=\"num\">#{Format.bytes(r.peak_rss_bytes)}</td>" \
            "<td class=\"num\">#{Format.bytes(r.code_region_bytes)}</td><td class=\"num\">#{Format.bytes(r.yjit_alloc_bytes)}</td></tr>"
        end
        "<h3>YJIT memory against speed</h3><table><tr><th>yjit-mem</th><th>workload</th><th>speed</th><th>peak RSS</th><th>code region</th><th>YJIT alloc</th></tr>#{body.join}</table>"
      end

      def traces
        return "" if @report.traces.empty?
        drawn = @figures.gvl.map(&:batch_id)
        figures = @figures.gvl.map { |plot| Charts::Gvl.render(plot) }
        rest = @report.traces.reject { |t| drawn.include?(t.batch_id) }.flat_map do |t|
          t.files.map { |path| "<li>#{esc(t.cell_key)}: <a href=\"#{esc(path)}\">#{esc(path)}</a></li>" }
        end
        others = rest.empty? ? "" : "<p>Traces without a per-thread summary (open each file at <a href=\"https://ui.perfetto.dev\">ui.perfetto.dev</a> with “Open trace file”):</p><ul>#{rest.join}</ul>"
        "<h2>GVL traces</h2><p>Each traced batch's threads: time running, in GC, wanting the GVL and waiting, from its gvl-tracing files.</p>" \
          "#{Charts::Gvl.legend unless figures.empty?}#{figures.join}#{others}"
      end

      def profiles
        @figures.profiles.map do |plot|
          title = [plot.workload, Format.params(plot.params)].reject(&:empty?).join(" · ")
          "<h2>Profiles (#{esc(plot.profiler)}) · #{esc(title)}</h2>#{Charts::Profile.render(plot, @report.baseline)}"
        end.join
      end

      def warnings
        return "" if @report.warnings.empty?
        "<h2>Warnings</h2><div class=\"warn\"><ul>#{@report.warnings.map { |w| "<li>#{esc(w)}</li>" }.join}</ul></div>"
      end

      def gem_sets
        rows = @report.gem_sets.to_a.map do |g|
          "<tr><td class=\"label\"><code>#{esc(g.runtime)}</code></td><td><code>#{esc(Format.gemfile(g.gemfile))}</code></td>" \
            "<td>#{esc(g.gems_text)}</td><td>#{esc(g.lockfile_text)}</td></tr>"
        end
        return "" if rows.empty?
        "<h3>Gem sets</h3><table><tr><th>runtime</th><th>Gemfile</th><th>gems</th><th>lockfile</th></tr>#{rows.join}</table>"
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
          #{gem_sets}
          <p>Reproduce: <code>#{esc(Shellwords.join(run.command_line))}</code></p></section>
        HTML
      end
    end
  end
end

# Renders a report as one self-contained HTML page (inline CSS and SVG, no scripts): the verdicts as a
# forest plot of ratios with CIs, per-batch values per cell, sweep charts, YJIT memory, profiles,
# links to GVL traces, the environment and warnings. Written next to the run as report.html.
require "shellwords"

module Rubyrig
  module Reporters
    class Html
      STYLE = <<~CSS
        body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1000px; color: #222; padding: 0 1rem; }
        h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
        h3 { margin-top: 1.6rem; } table { border-collapse: collapse; margin: .6rem 0 1rem; }
        th, td { padding: .25rem .6rem; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        .faster, .lower { color: #1d7a36; font-weight: 600; } .slower { color: #b3263a; font-weight: 600; }
        .higher { color: #a06a00; font-weight: 600; } .muted { color: #777; } code { font-size: 90%; }
        .warn { background: #fff7e0; border-left: 4px solid #e0a800; padding: .5rem 1rem; }
        svg { display: block; margin: .4rem 0 1rem; }
      CSS

      def initialize(report)
        @report = report
      end

      def render
        run = @report.run
        body = [header(run), overview, *@report.groups.map { |w, p, cells| group(w, p, cells) },
          http, sweeps, yjit_memory, profiles, traces, warnings, environment(run)].join("\n")
        <<~HTML
          <!DOCTYPE html>
          <html lang="en"><head><meta charset="utf-8"><title>rubyrig: #{esc(run.name)}</title>
          <style>#{STYLE}</style></head><body>
          #{body}
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

      def overview
        several = @report.cells.map(&:workload).uniq.size > 1
        rows = @report.groups.flat_map do |workload, params, cells|
          metric = @report.primary_metric(workload)
          cells.reject { |c| c.runtime == @report.baseline }.filter_map do |cell|
            c = @report.comparison(cell.runtime, workload, params, metric)
            where = [several ? workload : nil, Format.params(params)].compact.reject(&:empty?).join(" ")
            c&.ratio && [[cell.runtime, where].reject(&:empty?).join(" · "), c.ratio, c.ci, c.verdict]
          end
        end
        return "" if rows.empty?
        "<h2>Verdicts</h2><p class=\"muted\">Each workload's primary metric as a ratio to <code>#{esc(@report.baseline)}</code>, with the interval decided on (log scale).</p>#{Svg.forest(rows)}"
      end

      def group(workload, params, cells)
        primary = @report.primary_metric(workload)
        title = [workload, Format.params(params)].reject(&:empty?).join(" · ")
        metrics = [primary] + Metrics.headline(primary)
        tables = metrics.filter_map { |m| metric_table(cells, m) }
        strips = cells.map do |cell|
          summary = @report.summary(cell.key, primary)
          [cell.runtime, summary&.values.to_a, summary&.median]
        end
        "<h2>#{esc(title)}</h2>#{Svg.strip(strips, unit: Metrics.fetch(primary).unit)}#{tables.join}"
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
            "<td class=\"num\">#{Format.ratio(c.ratio)} #{Format.ci(c.ci)}</td><td class=\"num\">#{Format.p_value(c.p_adjusted)}</td><td class=\"#{c.verdict.split.first}\">#{esc(c.verdict)}</td>"
          else
            "<td></td><td></td><td></td>"
          end
          "<tr><td><code>#{esc(cell.runtime)}</code></td><td class=\"num\">#{s.n}</td><td class=\"num\">#{Format.value(s.median, definition.unit)}</td>" \
            "<td class=\"num\">#{Format.value(s.sd, definition.unit) if s.sd}</td><td class=\"num\">#{Format.percent(s.cv)}</td>#{compared}</tr>"
        end
        return nil if rows.empty?
        direction = definition.higher_is_better ? "higher is better" : "lower is better"
        "<h3>#{esc(definition.label)} <span class=\"muted\">(#{direction})</span></h3><table><tr><th>runtime</th><th>n</th><th>median</th><th>sd</th><th>CV</th><th>ratio [interval]</th><th>p (corrected)</th><th>verdict</th></tr>#{rows.join}</table>"
      end

      def http
        derived = @report.http
        return "" if derived.empty?
        cells = derived.cells.map do |d|
          m = d.medians
          label = [d.cell.runtime, d.cell.workload, Format.params(d.cell.params)].reject(&:empty?).join(" | ")
          "<tr><td><code>#{esc(label)}</code></td><td class=\"num\">#{d.n}</td><td class=\"num\">#{d.with_errors}</td>" +
            %w[latency_p50_s latency_p99_s latency_p999_s].map { |k| "<td class=\"num\">#{Format.seconds(m[k])}</td>" }.join +
            "<td class=\"num\">#{Format.significant(m["error_count"])}</td><td class=\"num\">#{Format.seconds(m["boot_s"])}</td>" \
            "<td class=\"num\">#{Format.percent(m["server_cpu_fraction"])}</td><td class=\"num\">#{Format.percent(m["load_cpu_fraction"])}</td></tr>"
        end
        html = "<h2>HTTP details</h2><p class=\"muted\">Medians over ok batches.</p><table><tr><th>cell</th><th>n</th><th>with errors</th>" \
          "<th>p50</th><th>p99</th><th>p99.9</th><th>errors</th><th>boot</th><th>server CPU</th><th>load CPU</th></tr>#{cells.join}</table>"
        unless derived.connection_modes.empty?
          rows = derived.connection_modes.map do |c|
            result = c.reason ? "<td>n/a</td><td></td><td>#{esc(c.reason)}</td>" :
              "<td class=\"num\">#{Format.ratio(c.ratio)} #{Format.ci(c.ci)}</td><td class=\"num\">#{Format.p_value(c.p_adjusted)}</td><td class=\"#{esc(c.verdict.split.first)}\">#{esc(c.verdict)}</td>"
            "<tr><td><code>#{esc(c.runtime)}</code></td><td>#{esc(c.workload)}</td><td>#{esc(Format.params(c.params))}</td><td>#{esc(c.mode)}</td>#{result}</tr>"
          end
          html += "<h3>Connection modes</h3><p class=\"muted\">Requests/s of each mode against keepalive, the interval decided on, corrected p.</p>" \
            "<table><tr><th>runtime</th><th>workload</th><th>params</th><th>mode</th><th>ratio [interval]</th><th>p</th><th>verdict</th></tr>#{rows.join}</table>"
        end
        unless derived.rails_overhead.empty?
          micro = ->(s) { s.nil? ? "n/a" : format("%.0f µs", s * 1e6) }
          rows = derived.rails_overhead.map do |o|
            ci = o.ci ? format("[%.0f, %.0f] µs", o.ci[0] * 1e6, o.ci[1] * 1e6) : "[n/a]"
            "<tr><td><code>#{esc(o.runtime)}</code></td><td>#{esc(Format.params(o.params))}</td><td class=\"num\">#{micro.call(o.overhead_s)} #{ci}</td>" \
              "<td class=\"num\">#{micro.call(o.rails_per_request_s)}</td><td class=\"num\">#{micro.call(o.rack_per_request_s)}</td></tr>"
          end
          html += "<h3>Rails overhead per request</h3><p class=\"muted\">1/rails − 1/rack requests/s, 95% Welch t interval over batches.</p>" \
            "<table><tr><th>runtime</th><th>params</th><th>overhead [95% CI]</th><th>Rails per request</th><th>Rack per request</th></tr>#{rows.join}</table>"
        end
        html
      end

      def sweeps
        @report.sweeps.map do |table|
          unit = Metrics.fetch(table.metric).unit
          xs = table.rows.map(&:value)
          series = table.runtimes.to_h { |r| [r, table.rows.map { |row| [row.value, row.cells[r].median] }] }
          head = "<tr><th>#{esc(table.param)}</th>#{table.runtimes.map { |r| "<th><code>#{esc(r)}</code></th>" }.join}</tr>"
          body = table.rows.map do |row|
            cells = table.runtimes.map do |r|
              point = row.cells[r]
              ratio = point.ratio ? " <span class=\"muted\">#{Format.ratio(point.ratio)} #{Format.ci(point.ci)}</span> <span class=\"#{esc(point.verdict.split.first)}\">#{esc(point.verdict)}</span>" : ""
              "<td class=\"num\">#{Format.value(point.median, unit)}#{ratio}</td>"
            end
            "<tr><td>#{esc(row.value)}</td>#{cells.join}</tr>"
          end
          fixed = Format.params(table.fixed)
          "<h2>Sweep over #{esc(table.param)} · #{esc(table.workload)}#{" · #{esc(fixed)}" unless fixed.empty?}</h2>" \
            "<p class=\"muted\">#{esc(Metrics.fetch(table.metric).label)}; ratios to #{esc(table.param)}=#{esc(xs.first)} of the same runtime, interval and verdict.</p>" \
            "#{Svg.lines(series, xs: xs, unit: unit)}<table>#{head}#{body.join}</table>"
        end.join
      end

      def yjit_memory
        rows = @report.yjit_memory
        return "" if rows.empty?
        body = rows.map do |r|
          "<tr><td class=\"num\">#{r.yjit_mem} MiB</td><td>#{esc([r.workload, Format.params(r.params)].reject(&:empty?).join(" "))}</td>" \
            "<td class=\"num\">#{Format.value(r.speed, Metrics.fetch(r.metric).unit)}</td><td class=\"num\">#{Format.bytes(r.peak_rss_bytes)}</td>" \
            "<td class=\"num\">#{Format.bytes(r.code_region_bytes)}</td><td class=\"num\">#{Format.bytes(r.yjit_alloc_bytes)}</td></tr>"
        end
        "<h2>YJIT memory against speed</h2><table><tr><th>yjit-mem</th><th>workload</th><th>speed</th><th>peak RSS</th><th>code region</th><th>YJIT alloc</th></tr>#{body.join}</table>"
      end

      def profiles
        @report.profiles.map do |g|
          runtimes = g.profiles.keys
          depth = g.top.values.map(&:size).max.to_i
          rows = (0...depth).map do |i|
            "<tr>" + runtimes.map { |r| (f = g.top[r][i]) ? "<td class=\"num\">#{Format.percent(f["self_share"])}</td><td><code>#{esc(f["name"])}</code></td>" : "<td></td><td></td>" }.join + "</tr>"
          end
          growth = g.growth.map do |runtime, frames|
            next "" if frames.empty?
            items = frames.map { |f| format("<li><code>%s</code>: %.1f%% → %.1f%% (%+.1f points)</li>", esc(f["name"]), f["baseline_share"] * 100, f["share"] * 100, f["delta"] * 100) }
            "<p>Grew most from <code>#{esc(@report.baseline)}</code> to <code>#{esc(runtime)}</code> (inclusive share of samples):</p><ul>#{items.join}</ul>"
          end
          title = [g.workload, Format.params(g.params)].reject(&:empty?).join(" · ")
          "<h2>Profiles (#{esc(g.profiles.values.first["profiler"])}) · #{esc(title)}</h2><table><tr>#{runtimes.map { |r| "<th colspan=\"2\"><code>#{esc(r)}</code></th>" }.join}</tr>#{rows.join}</table>#{growth.join}"
        end.join
      end

      def traces
        return "" if @report.traces.empty?
        items = @report.traces.flat_map do |t|
          t.files.map { |path| "<li>#{esc(t.cell_key)}: <a href=\"#{esc(path)}\">#{esc(path)}</a></li>" }
        end
        "<h2>GVL traces</h2><p>Open each file at <a href=\"https://ui.perfetto.dev\">ui.perfetto.dev</a> with “Open trace file”.</p><ul>#{items.join}</ul>"
      end

      def warnings
        return "" if @report.warnings.empty?
        "<h2>Warnings</h2><div class=\"warn\"><ul>#{@report.warnings.map { |w| "<li>#{esc(w)}</li>" }.join}</ul></div>"
      end

      def environment(run)
        host = run.host
        runtimes = run.runtimes.map do |label, r|
          extras = [r["ruby_flags"].to_a.join(" "), r["env"].to_h.compact.map { |k, v| "#{k}=#{v}" }.join(" ")].reject(&:empty?).join(" · ")
          "<tr><td><code>#{esc(label)}</code></td><td>#{esc(r.dig("interpreter", "description"))}</td><td><code>#{esc(extras)}</code></td></tr>"
        end
        <<~HTML
          <h2>Environment</h2>
          <p>#{esc(host["cpu_model"])}, #{esc(host["cores"])} cores, Linux #{esc(host["kernel"])}, governor #{esc(host["governor"])}, turbo #{esc(host["turbo"])}, load before #{esc(Array(host["load_average"]).join(" "))}</p>
          <table><tr><th>runtime</th><th>interpreter</th><th>flags and environment</th></tr>#{runtimes.join}</table>
          <p>Reproduce: <code>#{esc(Shellwords.join(run.command_line))}</code></p>
        HTML
      end
    end
  end
end

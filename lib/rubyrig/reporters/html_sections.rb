# Renders any report section (Analysis::Section) as HTML for the Html reporter: a heading, then each
# table, with its picture when it gives the numbers of one (the picture, its legend and caption, and
# the table in one figure; pictures that carry their own numbers are drawn without the table).
module Rubyrig
  module Reporters
    class HtmlSections
      # Pictures whose own lanes show every number: drawn under the table's title instead of the table.
      SELF_TABULATED = %i[jobs gvl profiles suite].freeze

      # report: the Analysis::Report; styles: each runtime's Svg::Style.
      def initialize(report, styles)
        @report = report
        @styles = styles
      end

      def section(section)
        legend = (section.tables.any? { |t| t.figure&.first == :gvl }) ? Charts::Gvl.legend : ""
        "<h2>#{esc(section.title)}</h2>#{legend}#{section.tables.map { |t| table(t) }.join}"
      end

      private

      def esc(text) = Svg.esc(text)

      def table(t)
        kind, plot = t.figure
        return "<h3>#{esc(t.title)}</h3>#{chart(kind, plot)}" if SELF_TABULATED.include?(kind)
        return "#{heading(t)}#{chart(kind, plot)}#{grid(t)}#{notes(t)}" if %i[ablations warmup].include?(kind)
        return figure(kind, plot, t) if kind && kind != :sweeps
        "#{chart(kind, plot) if kind}#{heading(t)}#{grid(t)}#{notes(t)}"
      end

      def heading(t) = "<h3>#{esc(t.title)}</h3>#{"<p class=\"muted\">#{esc(t.description)}</p>" if t.description}"

      def chart(kind, plot)
        case kind
        when :sweeps then plot.axis ? Charts::Sweep.render(plot, @styles) : ""
        when :warmup then plot.axis ? Charts::Sweep.render(plot, @styles, figure: "warmup") : ""
        when :jobs then Charts::Jobs.render(plot, @styles)
        when :gvl then Charts::Gvl.render(plot)
        when :profiles then Charts::Profile.render(plot, @report.baseline)
        when :ablations then Charts::Forest.render(plot)
        when :suite then Charts::Forest.render(plot, figure: "suite")
        end
      end

      # A picture with its legend, caption and table, in one figure.
      def figure(kind, plot, t)
        caption = "#{esc(t.title)}#{" (#{esc(t.description)})" if t.description}"
        drawn = case kind
        when :latency
          "#{Charts::Latency.render(plot, @styles)}#{Charts::Latency.legend(plot, @styles)}<figcaption>#{caption}: the bold line joins the medians " \
            "(whiskers: their 95% interval, from 6 batches on), faint lines are single batches; #{plot.axis.log ? "log" : "linear"} latency scale.</figcaption>"
        when :http_errors
          "#{Charts::Errors.render(plot, @styles)}#{Html.legend(plot.cells.map(&:runtime).uniq, @styles)}<figcaption>#{caption}: every ok " \
            "batch's errors (connect, read, write, timeouts and responses with status 400 or above).</figcaption>"
        when :capacity
          "#{Charts::Capacity.render(plot, @styles)}#{Html.legend(plot.series.map(&:runtime), @styles)}<figcaption>#{caption}: each batch's search, " \
            "a marker per step (filled: sustained, hollow: not); dashed red: the objective's bound; dotted: each runtime's median capacity, " \
            "shaded: its 95% interval; #{plot.x_axis.log ? "log" : "linear"} rate and #{plot.y_axis.log ? "log" : "linear"} latency scales.</figcaption>"
        when :grids
          blocks = plot.map { |g| %(<div><h4><code>#{esc(g.runtime)}</code></h4>#{Charts::Grid.render(g)}</div>) }
          %(<figcaption>#{caption}; the darker, the more (one scale from 0 for every runtime).</figcaption><div class="grids">#{blocks.join}</div>)
        when :why
          tick = (plot.unit == "B") ? "the peak RSS" : "the cost itself (the CPU of several threads can exceed it)"
          "#{Charts::Why.render(plot)}<figcaption>#{caption}; the black tick marks #{tick}.</figcaption>"
        when :memory_speed
          "<h3>#{esc(plot.workload)}</h3>#{Charts::MemorySpeed.render(plot, @styles)}#{Html.legend(plot.points.map(&:runtime).uniq, @styles)}" \
            "<figcaption>Peak RSS against #{esc(plot.label)} (#{plot.higher_is_better ? "higher" : "lower"} is better) per cell, #{caption}" \
            "#{"; the dashed line joins the +yjit-mem settings in order" unless plot.lines.empty?}.</figcaption>"
        end
        %(<figure class="chart" data-figure="#{kind.to_s.tr("_", "-").sub("grids", "grid")}">#{drawn}#{grid(t)}#{notes(t)}</figure>)
      end

      def grid(t)
        head = t.columns.map { |c| "<th>#{esc(c.label)}</th>" }.join
        rows = t.rows.map { |row| "<tr>#{t.columns.map { |c| cell(row[c.key], c.unit) }.join}</tr>" }
        "<table><tr>#{head}</tr>#{rows.join}</table>"
      end

      def notes(t) = t.notes.empty? ? "" : "<ul>#{t.notes.map { |n| "<li>#{esc(n)}</li>" }.join}</ul>"

      def cell(value, unit)
        case unit
        when "code" then %(<td class="label"><code>#{esc(value)}</code></td>)
        when "path" then value ? %(<td class="label"><a href="#{esc(value)}">#{esc(value)}</a></td>) : "<td></td>"
        when "verdict" then %(<td class="verdict-cell">#{Html.verdict_html(value&.verdict)}</td>)
        when "text", "params" then %(<td class="label">#{esc(Format.cell(value, unit))}</td>)
        when "share" then value ? %(<td class="frame">#{Format.percent(value.share)} <code>#{esc(value.name)}</code></td>) : "<td></td>"
        else %(<td class="num">#{number(value, unit)}</td>)
        end
      end

      # A number with its interval below it, and in a sweep the ratio and verdict against the first value.
      def number(value, unit)
        c = value.comparison if value.is_a?(Analysis::Section::Estimate)
        return Html.value_html(Format.cell(value, unit)) unless c&.ratio
        Html.value_html(Format.with_interval(value.value, value.ci, unit)) +
          %(<span class="ci">ratio #{Format.ratio(c.ratio)} #{Format.ci(c.ci)}</span>#{Html.verdict_html(c.verdict)})
      end
    end
  end
end

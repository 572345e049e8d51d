# `rubyrig history --html FILE`: one self-contained page (inline CSS and SVG, no scripts) with a
# timeline per series, its sentences (change points, cuts, levels) under it, and a table of its points.
module Rubyrig
  module History
    class Html
      STYLE = Reporters::Html::STYLE + <<~CSS
        ul.events { margin: .3rem 0 .6rem; padding-left: 1.2rem; } ul.events li.change { font-weight: 600; } ul.events li.change .muted { font-weight: 400; }
        svg.timeline { margin-top: .4rem; }
      CSS

      def initialize(report)
        @report = report
      end

      def render
        <<~HTML
          <!DOCTYPE html>
          <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>rubyrig history</title>
          <style>#{STYLE}</style></head><body>
          <h1>rubyrig history</h1>
          <p class="muted">#{@report.entries.size} series by #{esc(@report.by)} · change points: #{esc(Phrase.method(@report))} · rubyrig #{esc(VERSION)}</p>
          #{@report.entries.empty? ? "<p>No series match the filters.</p>" : @report.entries.map { |e| entry(e) }.join("\n")}
          </body></html>
        HTML
      end

      private

      def esc(text) = Reporters::Svg.esc(text)

      def entry(e)
        direction = e.higher_is_better ? "higher is better" : "lower is better"
        <<~HTML
          <section class="series" data-metric="#{esc(e.metric)}" data-runtime="#{esc(e.runtime)}">
          <h2>#{esc(Phrase.series(e))}</h2>
          <figure class="chart" data-figure="timeline">
          #{Timeline.render(e)}
          <figcaption>#{esc(e.metric)} (#{direction}) over #{Phrase.count(e)}: each point's median with the 95% interval of the median (dashed: the batches' range, under 6 batches); orange bars: the level of each stretch; dashed coloured lines: decided change points; dotted grey: candidates the comparison did not decide; grey bars: a new host or interpreter build (never compared across).</figcaption>
          </figure>
          <ul class="events">#{events(e)}</ul>
          #{table(e)}
          </section>
        HTML
      end

      def events(e)
        items = e.cuts.map { |c| [c.index, %(<li class="cut">#{esc(Phrase.cut(e, c))}</li>)] }
        items += e.changes.map do |c|
          [c.index, %(<li class="change">#{Reporters::Html.verdict_html(c.verdict)} #{esc(Phrase.change(e, c))}<br><span class="muted">#{esc(Phrase.sides(e, c))}</span></li>)]
        end
        items += e.candidates.map { |c| [c.index, %(<li class="muted">tested at #{esc(Phrase.point(e, c.index))}: #{esc(Phrase.amount(c))}, not a change</li>)] }
        items << [0, %(<li>#{esc(Phrase.none(e))}</li>)] if e.changes.empty?
        items.sort_by(&:first).map(&:last).join
      end

      def table(e)
        rows = e.marks.map do |m|
          interval = m.interval ? "[#{value(m.interval[0], e)}, #{value(m.interval[1], e)}]#{" range" if m.interval_kind == "range"}" : ""
          %(<tr><td class="num">#{m.number}</td><td>#{esc(m.label)}</td><td>#{esc(m.host_id)}</td><td><code>#{esc(m.revision.to_s[0, 7])}</code></td>) +
            %(<td>#{esc(m.version)}</td><td class="num">#{m.values.size}</td><td class="num">#{value(m.median, e)}</td><td class="num">#{interval}</td></tr>)
        end
        %(<details><summary>the #{Phrase.count(e)}</summary><table><thead><tr><th>#</th><th>#{(e.by == "time") ? "started (UTC)" : e.by}</th>) +
          %(<th>host</th><th>commit</th><th>version</th><th>n</th><th>median</th><th>interval</th></tr></thead><tbody>#{rows.join}</tbody></table></details>)
      end

      def value(number, e) = esc(Reporters::Format.value(number, e.unit))
    end
  end
end

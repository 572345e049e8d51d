# The GVL of one traced batch without Perfetto: per thread a stacked bar of its seconds running, in GC,
# wanting the GVL and waiting (on I/O or sleeping), the numbers beside it, and the trace files that
# Perfetto opens for the full timeline.
module Rubyrig
  module Reporters
    module Charts
      module Gvl
        PARTS = {"running_s" => ["running", "#1b7837"], "gc_s" => ["GC", "#7570b3"], "wants_gvl_s" => ["wanting the GVL", "#d95f02"],
                 "waiting_s" => ["waiting (I/O, sleep)", "#d9d9d9"]}.freeze
        WIDTH = 380
        PAD = 24

        module_function

        def legend
          items = PARTS.values.map do |name, color|
            %(<li><svg class="swatch" width="22" height="14" viewBox="0 0 22 14" aria-hidden="true"><rect x="1" y="2" width="20" height="10" fill="#{color}"/></svg> #{name}</li>)
          end
          %(<ul class="legend">#{items.join}</ul>)
        end

        def render(plot)
          axis = plot.axis
          head = Svg.svg(WIDTH, 28, [Svg.x_axis(axis, left: PAD, right: WIDTH - PAD, y: 4, width: WIDTH)], title: "seconds per thread", css: "lane-axis")
          rows = plot.threads.map do |t|
            numbers = PARTS.keys.map { |k| %(<td class="num">#{Format.seconds(t[k])}</td>) }.join
            %(<tr><td class="label">pid #{Svg.esc(t["pid"])} · #{Svg.esc(t["name"])}</td><td class="lane">#{lane(axis, t)}</td>#{numbers}) +
              %(<td class="num">#{Format.percent(t["wants_gvl_share"])}</td></tr>)
          end
          omitted = plot.omitted_threads.to_i.positive? ? %(<p class="muted">#{plot.omitted_threads} less busy threads are left out.</p>) : ""
          links = plot.files.map { |f| %(<a href="#{Svg.esc(f)}">#{Svg.esc(f)}</a>) }.join(", ")
          title = [plot.runtime, plot.workload, Format.params(plot.params)].reject(&:empty?).join(" · ")
          <<~HTML
            <figure class="chart" data-figure="gvl">
            <figcaption>GVL by thread in the traced batch <code>#{Svg.esc(plot.batch_id)}</code> of <code>#{Svg.esc(title)}</code> (#{plot.processes} process#{"es" if plot.processes.to_i > 1}). The full timeline: #{links}, opened at <a href="https://ui.perfetto.dev">ui.perfetto.dev</a> with “Open trace file”.</figcaption>
            <table class="lanes"><thead><tr><th>thread</th><th class="lane">#{head}</th>#{PARTS.values.map { |name, _| "<th>#{name}</th>" }.join}<th>share wanting</th></tr></thead>
            <tbody>#{rows.join}</tbody></table>#{omitted}</figure>
          HTML
        end

        def lane(axis, thread)
          x = ->(v) { Svg.place(axis, v, PAD, WIDTH - PAD) }
          at = 0.0
          parts = PARTS.filter_map do |key, (name, color)|
            seconds = thread[key].to_f
            from = at
            at += seconds
            next if seconds <= 0
            %(<rect class="gvl-part" data-part="#{key}" x="#{Svg.r(x.call(from))}" y="5" width="#{Svg.r([x.call(at) - x.call(from), 0.8].max)}" height="14" fill="#{color}"><title>#{Svg.esc("#{thread["name"]}: #{name} #{Format.seconds(seconds)}")}</title></rect>)
          end
          Svg.svg(WIDTH, 24, parts, title: "#{thread["name"]}: #{Format.seconds(thread["total_s"])} traced", css: "lane-svg")
        end
      end
    end
  end
end

# Renders the HTTP-only part of a report for the terminal and Markdown reporters: per cell the latency
# percentiles, errors (and how many batches were "ok with errors"), boot time, CPU use of server and
# load generator, and which load generator measured the cell; then each connection mode against keepalive; then the Rails overhead per request.
module Rubyrig
  module Reporters
    class HttpSection
      # derived: the report's Analysis::HttpDerived::Result.
      def initialize(derived)
        @derived = derived
      end

      # Lines for the terminal; the block paints (text, colour).
      def terminal(&paint)
        return [] if @derived.empty?
        lines = [paint.call("HTTP details", :bold) + " (medians over ok batches)"]
        @derived.cells.each { |d| lines << "    #{label(d.cell)}: #{detail(d)}" }
        lines << ""
        unless @derived.connection_modes.empty?
          lines << "#{paint.call("Connection modes", :bold)} (requests/s against keepalive; #{Format.method_line(@derived.connection_modes, "keepalive")})"
          @derived.connection_modes.each do |c|
            color = Terminal::VERDICT_COLORS.fetch(c.verdict, :dim)
            lines << "    #{c.runtime} | #{c.workload} | #{Format.params(c.params)}: #{mode_text(c)} #{paint.call(c.verdict, color)}#{winner(c)}"
          end
          lines << ""
        end
        unless @derived.rails_overhead.empty?
          lines << "#{paint.call("Rails overhead per request", :bold)} (1/rails - 1/rack requests/s, 95% Welch t interval over batches)"
          @derived.rails_overhead.each { |o| lines << "    #{o.runtime} | #{Format.params(o.params)}: #{overhead_text(o)}" }
          lines << ""
        end
        lines
      end

      def markdown
        return [] if @derived.empty?
        lines = ["**HTTP details** (medians over ok batches)", "",
          "| cell | n | with errors | p50 | p99 | p99.9 | errors | boot | server CPU | load CPU | measured by |", "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"]
        @derived.cells.each do |d|
          m = d.medians
          lines << "| #{MarkdownText.code(label(d.cell), table: true)} | #{d.n} | #{d.with_errors} | #{Format.seconds(m["latency_p50_s"])} | #{Format.seconds(m["latency_p99_s"])} | " \
            "#{Format.seconds(m["latency_p999_s"])} | #{Format.significant(m["error_count"])} | #{Format.seconds(m["boot_s"])} | " \
            "#{Format.percent(m["server_cpu_fraction"])} | #{Format.percent(m["load_cpu_fraction"])} | #{MarkdownText.text(d.load_generator || "n/a")} |"
        end
        lines << ""
        unless @derived.connection_modes.empty?
          lines += ["**Connection modes**: requests/s against keepalive; #{Format.method_line(@derived.connection_modes, "keepalive")}", "",
            "| runtime | workload | params | mode | ratio [interval] | p | verdict |", "|---|---|---|---|---|--:|---|"]
          @derived.connection_modes.each do |c|
            lines << "| #{MarkdownText.code(c.runtime, table: true)} | #{MarkdownText.text(c.workload)} | #{MarkdownText.text(Format.params(c.params))} | #{c.mode} | #{Format.ratio(c.ratio)} #{Format.ci(c.ci)} | " \
              "#{Format.p_value(c.p_adjusted)} | #{c.verdict}#{winner(c)} |"
          end
          lines << ""
        end
        unless @derived.rails_overhead.empty?
          lines += ["**Rails overhead per request**: 1/rails - 1/rack requests/s, 95% Welch t interval over batches", "",
            "| runtime | params | overhead [95% CI] | Rails per request | Rack per request |", "|---|---|---|--:|--:|"]
          @derived.rails_overhead.each do |o|
            lines << "| #{MarkdownText.code(o.runtime, table: true)} | #{MarkdownText.text(Format.params(o.params))} | #{micro(o.overhead_s)} #{micro_ci(o.ci)} | " \
              "#{micro(o.rails_per_request_s)} | #{micro(o.rack_per_request_s)} |"
          end
          lines << ""
        end
        lines
      end

      private

      def label(cell) = [cell.runtime, cell.workload, Format.params(cell.params)].reject(&:empty?).join(" | ")

      def detail(d)
        m = d.medians
        errors = d.with_errors.positive? ? "#{d.with_errors} of #{d.n} batches ok with errors" : "no errors"
        "p50 #{Format.seconds(m["latency_p50_s"])}, p99 #{Format.seconds(m["latency_p99_s"])}, " \
          "p99.9 #{Format.seconds(m["latency_p999_s"])}, boot #{Format.seconds(m["boot_s"])}, " \
          "server CPU #{Format.percent(m["server_cpu_fraction"])}, load CPU #{Format.percent(m["load_cpu_fraction"])}, #{errors}" \
          "#{", measured by #{d.load_generator}" if d.load_generator}"
      end

      def mode_text(c)
        return "#{c.mode} n/a (#{c.reason})" if c.reason
        "#{c.mode} #{Format.ratio(c.ratio)} #{Format.ci(c.ci)} p=#{Format.p_value(c.p_adjusted)}"
      end

      # Says the same result from the reference's side: "close slower" means "keepalive faster".
      def winner(c)
        case c.verdict
        when "slower" then " (#{c.reference} faster)"
        when "faster" then " (#{c.reference} slower)"
        else ""
        end
      end

      def overhead_text(o)
        "#{micro(o.overhead_s)} #{micro_ci(o.ci)} (Rails #{micro(o.rails_per_request_s)}, Rack #{micro(o.rack_per_request_s)} per request; n=#{o.n}/#{o.rack_n})"
      end

      def micro(seconds) = seconds.nil? ? "n/a" : format("%.0f µs", seconds * 1e6)

      def micro_ci(pair) = pair.nil? ? "[n/a]" : format("[%.0f, %.0f] µs", pair[0] * 1e6, pair[1] * 1e6)
    end
  end
end

# Sweep tables: for a threads (or processes, concurrency) sweep, the primary metric per runtime at
# each value and its ratio to the same runtime's first value, with interval, corrected test and
# verdict from the one verdict pipeline (a table is one family); the same for parameters a workload
# declares in `sweeps:`; and for a +yjit-mem sweep, speed next to memory for each setting.
# Pure: reads the core report's summaries, no I/O.
module Rubyrig
  class Analysis
    class Scaling
      SWEEP_PARAMS = %w[threads processes concurrency].freeze

      # One row of a sweep: the parameter value and, per runtime, a Point.
      Row = Struct.new(:value, :cells, keyword_init: true)
      # One runtime at one value: median, batch count and the Comparison against the first value (nil at
      # the first value).
      Point = Struct.new(:median, :n, :comparison, keyword_init: true) do
        def ratio = comparison&.ratio

        def to_h = {median: median, n: n}.merge(COMPARISON_FIELDS.to_h { |f| [f, comparison&.public_send(f)] })
      end
      # What a sweep point shows of its comparison in JSON, beside its median.
      COMPARISON_FIELDS = %i[ratio ci confidence p_value p_adjusted verdict reason method_name margin baseline_n hosts heterogeneity
        paired caveats appearance].freeze
      # A table for one workload, one swept parameter and fixed values of the other parameters.
      Table = Struct.new(:workload, :param, :fixed, :metric, :runtimes, :rows, keyword_init: true)
      # Speed and memory of one yjit-mem setting.
      MemoryRow = Struct.new(:runtime, :yjit_mem, :workload, :params, :speed, :metric, :peak_rss_bytes,
        :code_region_bytes, :yjit_alloc_bytes, keyword_init: true)

      def initialize(report, alpha: 0.05)
        @report = report
        @alpha = alpha
      end

      def tables
        cells = @report.cells
        cells.map(&:workload).uniq.flat_map do |workload|
          mine = cells.select { |c| c.workload == workload }
          declared = @report.run.workload(workload).sweeps
          (SWEEP_PARAMS + declared).uniq.filter_map do |param|
            values = mine.map { |c| c.params[param] }.uniq
            next if values.size < 2
            next unless declared.include?(param) || values.all?(Numeric)
            values = values.sort if values.all?(Numeric)
            mine.group_by { |c| c.params.except(param) }.map do |fixed, group|
              table(workload, param, fixed, group, values)
            end
          end.flatten
        end
      end

      # Rows for runtimes that differ only in +yjit-mem: the memory-against-speed view of seed 004.
      def yjit_memory_rows
        with_mem = @report.run.runtimes.select { |_, r| r["spec"].to_s.match?(/\+yjit-mem=\d+/) }
        return [] if with_mem.size < 2
        @report.cells.select { |c| with_mem.key?(c.runtime) }.map do |cell|
          metric = @report.primary_metric(cell.workload)
          value = ->(name) { @report.summary(cell.key, name)&.median }
          MemoryRow.new(runtime: cell.runtime, yjit_mem: with_mem[cell.runtime]["spec"][/\+yjit-mem=(\d+)/, 1].to_i,
            workload: cell.workload, params: cell.params, metric: metric, speed: value.call(metric),
            peak_rss_bytes: value.call("peak_rss_bytes"), code_region_bytes: value.call("yjit_code_region_bytes"),
            yjit_alloc_bytes: value.call("yjit_alloc_bytes")).freeze
        end.sort_by { |r| [r.workload, r.params.to_a, r.yjit_mem] }
      end

      private

      def table(workload, param, fixed, cells, values)
        metric = @report.primary_metric(workload)
        runtimes = cells.map(&:runtime).uniq
        family = runtimes.product(values.drop(1)).map do |runtime, value|
          base = summary(cells, runtime, param, values.first, metric)
          other = summary(cells, runtime, param, value, metric)
          {runtime: runtime, baseline: runtime, workload: workload, params: fixed, other: "#{param}=#{value}",
           reference: "#{param}=#{values.first}", base: base&.values.to_a, other_values: other&.values.to_a,
           base_hosts: base&.hosts.to_a, other_hosts: other&.hosts.to_a, base_rounds: base&.rounds.to_a, other_rounds: other&.rounds.to_a}
        end
        decision = @report.run.decision
        decided = Contrasts.decide(family, metric: metric, alpha: @alpha, margin: decision.margin(metric), looks: decision.looks)
        contrasts = family.zip(decided).to_h { |c, d| [[c[:runtime], c[:other]], d] }
        rows = values.map do |value|
          Row.new(value: value, cells: runtimes.to_h do |runtime|
            here = samples(cells, runtime, param, value, metric)
            [runtime, Point.new(median: here.empty? ? nil : Stats.median(here), n: here.size,
              comparison: contrasts[[runtime, "#{param}=#{value}"]]).freeze]
          end).freeze
        end
        Table.new(workload: workload, param: param, fixed: fixed, metric: metric, runtimes: runtimes, rows: rows).freeze
      end

      def samples(cells, runtime, param, value, metric) = summary(cells, runtime, param, value, metric)&.values.to_a

      def summary(cells, runtime, param, value, metric)
        cell = cells.find { |c| c.runtime == runtime && c.params[param] == value }
        cell && @report.summary(cell.key, metric)
      end
    end
  end
end

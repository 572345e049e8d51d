# Sweep tables from an analysed report: for a threads (or processes, concurrency) sweep, the primary
# metric per runtime at each value and its ratio to the same runtime's smallest value, with a 95% CI;
# the same for parameters a workload declares in `sweeps:` (ratio to their first value); and for a
# +yjit-mem sweep, speed next to memory for each setting. Pure: reads the report, no I/O.
module Rubyrig
  class Scaling
    SWEEP_PARAMS = %w[threads processes concurrency].freeze

    # One row of a sweep: the parameter value and, per runtime, median, ratio and CI.
    Row = Struct.new(:value, :cells, keyword_init: true)
    # A table for one workload, one swept parameter and fixed values of the other parameters.
    Table = Struct.new(:workload, :param, :fixed, :metric, :runtimes, :rows, keyword_init: true)
    # Speed and memory of one yjit-mem setting.
    MemoryRow = Struct.new(:runtime, :yjit_mem, :workload, :params, :speed, :metric, :peak_rss_bytes,
      :code_region_bytes, :yjit_alloc_bytes, keyword_init: true)

    def initialize(report, resamples: 4000)
      @report = report
      @resamples = resamples
      @rng = Random.new(report.meta.dig("plan", "seed") || 0)
    end

    def tables
      cells = @report.cells
      cells.map(&:workload).uniq.flat_map do |workload|
        mine = cells.select { |c| c.workload == workload }
        declared = @report.meta.dig("workloads", workload, "sweeps") || []
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
      with_mem = (@report.meta["runtimes"] || {}).select { |_, r| r["spec"].to_s.match?(/\+yjit-mem=\d+/) }
      return [] if with_mem.size < 2
      @report.cells.select { |c| with_mem.key?(c.runtime) }.map do |cell|
        metric = @report.primary_metric(cell.workload)
        value = ->(name) { @report.summary(cell.key, name)&.median }
        MemoryRow.new(runtime: cell.runtime, yjit_mem: with_mem[cell.runtime]["spec"][/\+yjit-mem=(\d+)/, 1].to_i,
          workload: cell.workload, params: cell.params, metric: metric, speed: value.call(metric),
          peak_rss_bytes: value.call("peak_rss_bytes"), code_region_bytes: value.call("yjit_code_region_bytes"),
          yjit_alloc_bytes: value.call("yjit_alloc_bytes"))
      end.sort_by { |r| [r.workload, r.params.to_a, r.yjit_mem] }
    end

    private

    def table(workload, param, fixed, cells, values)
      metric = @report.primary_metric(workload)
      definition = Metrics.fetch(metric)
      runtimes = cells.map(&:runtime).uniq
      rows = values.map do |value|
        Row.new(value: value, cells: runtimes.to_h do |runtime|
          base = samples(cells, runtime, param, values.first, metric)
          here = samples(cells, runtime, param, value, metric)
          median = here.empty? ? nil : Stats.median(here)
          ratio = (value == values.first) ? nil : Stats.ratio(base, here, rate: definition.rate)
          ci = ratio && Stats.bootstrap_ratio_ci(base, here, rate: definition.rate, rng: @rng, resamples: @resamples)
          [runtime, {median: median, ratio: ratio, ci: ci}]
        end)
      end
      Table.new(workload: workload, param: param, fixed: fixed, metric: metric, runtimes: runtimes, rows: rows)
    end

    def samples(cells, runtime, param, value, metric)
      cell = cells.find { |c| c.runtime == runtime && c.params[param] == value }
      return [] unless cell
      @report.measured_trials.select { |t| t.ok? && t.cell_key == cell.key && t.metrics[metric].is_a?(Numeric) }
        .map { |t| t.metrics[metric].to_f }
    end
  end
end

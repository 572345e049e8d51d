# One metric of one cell (workload, parameters, runtime label) across the runs of a history.
module Rubyrig
  module History
    # params: the cell's parameters as given (a benchmark-ips item adds "item"); unit and
    # higher_is_better: the metric's definition as the newest run recorded it, kind its comparison
    # words (speed: faster/slower; memory and resource: higher/lower); primary: whether it is the
    # workload's primary metric; points: one History::Point per run (per host in a merged run),
    # ordered by started_at, then run id.
    Series = Struct.new(:workload, :params, :runtime, :metric, :unit, :higher_is_better, :kind, :primary, :points,
      keyword_init: true) do
      def params_label = params.map { |k, v| "#{k}=#{v}" }.join(" ")

      def label = [workload, params_label, runtime, metric].reject(&:empty?).join(" | ")
    end
  end
end

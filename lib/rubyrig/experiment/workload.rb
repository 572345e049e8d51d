# What runs in a cell: the workload's kind, target (script path, argv, app...), parameter matrix and
# per-workload settings, after defaults from a built-in have been applied; prepare is the argv run once
# per runtime before the first batch (nil when none).
module Rubyrig
  class Experiment
    Workload = Struct.new(:name, :kind, :target, :params, :iterations, :warmup, :timeout_s, :gemfile,
      :options, :sweeps, :base_dir, :prepare, keyword_init: true) do
      # Every combination of parameter values, in a stable order: [{"threads" => 1}, {"threads" => 2}].
      def param_combinations
        keys = params.keys
        return [{}] if keys.empty?
        first, *rest = keys.map { |k| params[k] }
        first.product(*rest).map { |values| keys.zip(values).to_h }
      end

      def to_h = super.except(:base_dir)

      # The same workload with some members replaced (the options a run recorded, its deadline).
      def with(**changes) = self.class.new(**each_pair.to_h, **changes).freeze
    end
  end
end

# `rubyrig why`: for each decided difference of a finished run (Difference), reruns of its cell on both
# runtimes with one factor switched at a time (Switches, Change), planned within a budget (Plan, Cost),
# run as ordinary runs inside the run's directory (FollowUp, Investigation), and the answer: the share
# of the gap each switch removes with its interval (Share), and which closes it (Outcome, Answer). The
# defaults live here, once.
module Rubyrig
  module Ablation
    # The follow-up runs live in RESULTS_DIR/why/<difference>/<switch>/.
    DIR = "why"

    # How long `rubyrig why` may spend on follow-up runs unless --budget says otherwise.
    DEFAULT_BUDGET_S = 600

    # The larger GC heap of the GC switch: every RUBY_GC_* variable a runtime sets gives way to these.
    # CRuby up to 3.2 reads the initial heap from RUBY_GC_HEAP_INIT_SLOTS, 3.3 per size pool (0: the
    # 40-byte slots most objects take); each ignores the other's.
    GC_ENV = {
      "RUBY_GC_HEAP_INIT_SLOTS" => "1000000", "RUBY_GC_HEAP_0_INIT_SLOTS" => "1000000", "RUBY_GC_MALLOC_LIMIT" => "134217728",
      "RUBY_GC_MALLOC_LIMIT_MAX" => "268435456", "RUBY_GC_OLDMALLOC_LIMIT" => "134217728",
      "RUBY_GC_OLDMALLOC_LIMIT_MAX" => "268435456"
    }.freeze

    # The YJIT code region (MiB) the code region switch tries.
    YJIT_MEM_MIB = 32

    # The record `rubyrig why` leaves in run.json's `ablations`: the command line and each Answer.
    def self.record(command_line, answers) = {"command_line" => command_line, "answers" => answers.map(&:to_record)}
  end
end

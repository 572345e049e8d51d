# Seeded simulation of the words `rubyrig why` says (Ablation::Outcome) against the truth: a run whose
# runtime is `gap` times the baseline (lognormal batch values at a CV, n batches a side, Welch: no
# rounds), kept only when the run decides it the gap's way (as `rubyrig why` explains only decided
# differences), then a follow-up with the same design whose true ratio is gap^(1 - removed): a switch
# that removes nothing (0), half (0.5) or all (1) of the gap on the log scale. Both go through the
# project's own verdict pipeline (Analysis::Contrasts), then Share and Outcome. Used by the unit test
# test/rubyrig/ablation/outcome_simulation_test.rb and by bench/why-words (docs/why-command.md).
require "rubyrig"

module WhyWordsSimulation
  Design = Struct.new(:gap, :removed, :n, :cv, keyword_init: true)
  # words: Outcome word => count over the kept draws; kept: draws whose run decided the gap; draws.
  Tally = Struct.new(:design, :words, :kept, :draws, keyword_init: true) do
    def rate(word) = kept.zero? ? 0.0 : words.fetch(word, 0).fdiv(kept)
  end

  module_function

  def tally(design, draws:, seed:)
    random = Random.new(seed)
    words = Hash.new(0)
    kept = 0
    draws.times do
      run = compare(design.gap, design, random)
      next unless run.verdict == "slower"
      kept += 1
      follow_up = compare(design.gap**(1 - design.removed), design, random)
      words[word(difference(run), follow_up)] += 1
    end
    Tally.new(design: design, words: words.freeze, kept: kept, draws: draws).freeze
  end

  def word(difference, comparison)
    share = Rubyrig::Ablation::Share.of(difference, comparison)
    Rubyrig::Ablation::Outcome.of(difference, comparison, share)
  end

  # One comparison of n batches a side, the other side `ratio` times the baseline on iterations_per_s.
  def compare(ratio, design, random)
    sigma = Math.sqrt(Math.log(1 + design.cv**2))
    base = Array.new(design.n) { Math.exp(sigma * normal(random)) }
    other = Array.new(design.n) { ratio * Math.exp(sigma * normal(random)) }
    family = [{runtime: "other", baseline: "base", workload: "w", params: {}, base: base, other_values: other}]
    Rubyrig::Analysis::Contrasts.decide(family, metric: "iterations_per_s", margin: Rubyrig::Experiment::Decision::DEFAULT_EQUIVALENCE).first
  end

  def difference(c)
    Rubyrig::Ablation::Difference.from_comparison({"workload" => "w", "runtime" => c.runtime, "baseline" => c.baseline, "params" => {},
      "metric" => c.metric, "ratio" => c.ratio, "ci" => c.ci, "confidence" => c.confidence, "p_adjusted" => c.p_adjusted,
      "df" => c.df, "verdict" => c.verdict})
  end

  # Box-Muller.
  def normal(random) = Math.sqrt(-2 * Math.log(1 - random.rand)) * Math.cos(2 * Math::PI * random.rand)
end

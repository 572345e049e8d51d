# The host as a block: one comparison whose batches come from several hosts is made within each host
# and combined, and the hosts' disagreement is tested. Pure functions on log batch values, used by
# Inference (docs/statistics.md, "Several hosts", has the reasoning and the simulations).
#
# - Within host h: d_h = mean(log other_h) - mean(log base_h), v_h = s_bh^2 / n_bh + s_oh^2 / n_oh,
#   df_h by Welch-Satterthwaite. A host with fewer than 2 ok batches on a side is left out. When the
#   batches are paired by round (Pairing), d_h is the mean of the host's paired log ratios, v_h their
#   variance over the n_h pairs and df_h = n_h - 1; a host with fewer than 2 pairs is left out.
# - Combined: d = sum(w_h d_h) with fixed weights w_h proportional to n_bh n_oh / (n_bh + n_oh) (equal
#   for equal batch counts; n_h for pairs), so var(d) = sum(w_h^2 v_h) and its degrees of freedom
#   follow from Satterthwaite over every host's variance estimates. The weights depend on batch counts only,
#   never on the measured spreads, which 2 to 5 batches per host estimate too roughly to weigh by.
# - Heterogeneity: Cochran's Q = sum((d_h - d_iv)^2 / v_h) around the inverse-variance mean d_iv, and
#   its p-value from Welch's (1951) F approximation, which allows for v_h being estimated from few
#   batches (a chi-square reference would raise false alarms). With 3 or more hosts the odd host is
#   the one furthest from the others (leave-one-out, in standard errors); with 2, both are named.
module Rubyrig
  class Analysis
    module Strata
      # One host's side of a comparison. weight and df are nil, and reason says why, when left out.
      Stratum = Struct.new(:host, :ratio, :ci, :n, :baseline_n, :df, :weight, :reason, keyword_init: true) do
        def used? = reason.nil?
      end

      # Cochran's Q on df = hosts - 1 with Welch's F statistic and its denominator df; p_adjusted is
      # corrected like the family's comparisons; disagree when p_adjusted < alpha.
      Heterogeneity = Struct.new(:q, :df, :f, :df_denominator, :p_value, :p_adjusted, :disagree, :odd_hosts,
        keyword_init: true)

      # The combined log ratio and the variance components it is made of (Inference::Component), whether
      # it pairs batches by round, the largest df the design allows (nil: Satterthwaite's), and the
      # edges it met (Inference::CAVEATS keys).
      Design = Struct.new(:log_ratio, :components, :hosts, :strata, :paired, :df_cap, :caveats, keyword_init: true)

      # A host's log samples and its own contrast; pairs: its paired log ratios when paired by round.
      Part = Struct.new(:host, :base, :other, :pairs, :log_ratio, :variance, :df, keyword_init: true) do
        def size = pairs ? pairs.size : base.size * other.size / (base.size + other.size).to_f
      end

      module_function

      # True when a contrast's batches come from more than one host.
      def several?(contrast)
        hosts = contrast[:base_hosts]
        others = contrast[:other_hosts]
        !hosts.nil? && !others.nil? && (hosts + others).uniq.size > 1
      end

      # Every host as a Part, in the order of their names; those without enough batches (or pairs) have
      # no log_ratio. paired: contrast within each host's rounds (Pairing) rather than between its samples.
      def parts(contrast, paired: false)
        grouped = ->(values, hosts) { values.zip(hosts || []).group_by(&:last).transform_values { |pairs| pairs.map(&:first) } }
        base = grouped.call(contrast[:base], contrast[:base_hosts])
        other = grouped.call(contrast[:other], contrast[:other_hosts])
        ratios = paired ? Pairing.log_ratios(contrast) : {}
        (base.keys | other.keys).sort_by(&:to_s).map do |host|
          b = base.fetch(host, [])
          o = other.fetch(host, [])
          paired ? paired_part(host, b, o, ratios.fetch(host, [])) : welch_part(host, b, o)
        end
      end

      def welch_part(host, b, o)
        return Part.new(host: host, base: b, other: o) if b.size < Inference::MIN_BATCHES || o.size < Inference::MIN_BATCHES
        bs = Inference.log_sample(b)
        os = Inference.log_sample(o)
        Part.new(host: host, base: b, other: o, log_ratio: os.mean - bs.mean,
          variance: bs.variance / bs.n + os.variance / os.n,
          df: Stats.satterthwaite_df([[bs.variance / bs.n, bs.n - 1], [os.variance / os.n, os.n - 1]]))
      end

      def paired_part(host, b, o, pairs)
        return Part.new(host: host, base: b, other: o, pairs: pairs) if pairs.size < Inference::MIN_BATCHES
        sample = Inference.difference_sample(pairs)
        Part.new(host: host, base: b, other: o, pairs: pairs, log_ratio: sample.mean, variance: sample.variance / sample.n,
          df: (sample.variance > 0) ? sample.n - 1 : nil)
      end

      def usable(parts) = parts.reject { |p| p.log_ratio.nil? }

      # The combined contrast at per-comparison level each_alpha, with every host's own interval.
      # floor: values -> the least log variance a side may have (one quantum for counts; 0 otherwise).
      # Each host's own interval only when there are several.
      def design(contrast, each_alpha, paired: false, floor: ->(_) { 0.0 })
        all = parts(contrast, paired: paired)
        used = usable(all)
        total = used.sum(&:size)
        weights = used.to_h { |p| [p.host, p.size.fdiv(total)] }
        caveats = []
        components = used.flat_map do |p|
          w = weights[p.host]
          sides = paired ? [[p.pairs, floor.call(p.base) + floor.call(p.other), true]] : [[p.base, floor.call(p.base)], [p.other, floor.call(p.other)]]
          sides.map do |values, least, differences|
            variance = differences ? Inference.difference_sample(values).variance : Inference.log_sample(values).variance
            caveats << :floored if variance < least
            Inference::Component.new(weight: w, variance: [variance, least].max, n: values.size)
          end
        end
        unequal = !paired && used.any? { |p| p.base.size != p.other.size }
        caveats << :unequal if unequal
        Design.new(log_ratio: used.sum { |p| weights[p.host] * p.log_ratio }, components: components, hosts: used.size,
          strata: several?(contrast) ? all.map { |p| stratum(p, weights[p.host], each_alpha) }.freeze : nil, paired: paired,
          df_cap: unequal ? components.map { |c| c.n - 1 }.min : nil, caveats: caveats.uniq)
      end

      def stratum(part, weight, each_alpha)
        if part.log_ratio.nil?
          needs = part.pairs ? "#{Inference::MIN_BATCHES} rounds that hold both cells" : "#{Inference::MIN_BATCHES} ok batches on each side"
          return Stratum.new(host: part.host, n: part.other.size, baseline_n: part.base.size, reason: "left out: needs #{needs}").freeze
        end
        half = part.df ? Stats.t_quantile(1 - each_alpha / 2, part.df) * Math.sqrt(part.variance) : 0.0
        Stratum.new(host: part.host, ratio: Math.exp(part.log_ratio),
          ci: [Math.exp(part.log_ratio - half), Math.exp(part.log_ratio + half)].freeze,
          n: part.other.size, baseline_n: part.base.size, df: part.df, weight: weight).freeze
      end

      # Welch's (1951) test that the hosts' log ratios are equal, or nil with fewer than 2 usable hosts or
      # a host whose spread is zero (nothing to weigh by). tests: the family's Bonferroni factor.
      def heterogeneity(contrast, alpha:, tests:, paired: false)
        used = usable(parts(contrast, paired: paired))
        return nil if used.size < 2 || used.any? { |p| p.variance <= 0 || p.df.nil? }
        k = used.size
        w = used.map { |p| 1.0 / p.variance }
        total = w.sum
        mean = used.each_with_index.sum { |p, i| w[i] * p.log_ratio } / total
        q = used.each_with_index.sum { |p, i| w[i] * (p.log_ratio - mean)**2 }
        lambda = used.each_with_index.sum { |p, i| (1 - w[i] / total)**2 / p.df }
        f = (q / (k - 1)) / (1 + 2.0 * (k - 2) * lambda / (k * k - 1))
        df2 = (k * k - 1) / (3.0 * lambda)
        p_value = Stats.f_upper_tail(f, k - 1, df2)
        p_adjusted = [p_value * tests, 1.0].min
        Heterogeneity.new(q: q, df: k - 1, f: f, df_denominator: df2, p_value: p_value, p_adjusted: p_adjusted,
          disagree: p_adjusted < alpha, odd_hosts: odd_hosts(used).freeze).freeze
      end

      # The host furthest from the inverse-variance mean of the others, in standard errors; both hosts
      # when there are only two (each is as far from the other).
      def odd_hosts(used)
        return used.map(&:host) if used.size == 2
        odd = used.max_by do |p|
          others = used - [p]
          weight = others.sum { |o| 1.0 / o.variance }
          mean = others.sum { |o| o.log_ratio / o.variance } / weight
          (p.log_ratio - mean).abs / Math.sqrt(p.variance + 1.0 / weight)
        end
        [odd.host]
      end
    end
  end
end

# Reads every number of a Why line back from summary.json: each number the line shows must be a value
# summary.json holds (in `why` or `comparisons`), printed the way Why::Line prints it.
module WhyNumbers
  NUMBER = /[+-]?\d+(?:\.\d+)?(?:e[+-]\d+)?(?:x| ms| µs| s| B| KiB| MiB| GiB|%)?/

  # The numbers of a line that summary.json does not hold; names (runtimes, parameters, metric labels)
  # and the fixed words of docs/why.md are taken out first.
  def unmeasured_numbers(line, doc, names)
    text = names.sort_by { |n| -n.size }.reduce(line) { |t, name| t.gsub(name, " ") }.gsub("CRuby 3.2+", " ")
    known = formatted(numbers(doc.values_at("why", "comparisons")))
    text.scan(NUMBER).reject { |token| known.include?(token) }
  end

  def numbers(value)
    case value
    when Hash then value.values.flat_map { |v| numbers(v) }
    when Array then value.flat_map { |v| numbers(v) }
    when Numeric then [value]
    else []
    end
  end

  def formatted(values)
    line = Rubyrig::Analysis::Why::Line
    values.flat_map do |v|
      [line.ratio_number(v), line.ratio(v), line.percent(v), line.amount(v, "s"), line.amount(v, "B"), *(v.is_a?(Integer) ? [v.to_s] : [])]
    end.to_set
  end

  # Runtimes, parameters as the line prints them and metric labels of a summary.json.
  def names_of(doc)
    params = doc["comparisons"].flat_map { |c| c["params"].map { |k, v| "#{k}=#{v}" } }
    labels = doc["comparisons"].map { |c| Rubyrig::Metrics.fetch(c["metric"]).label }
    doc["run"]["runtimes"].keys + params + labels
  end
end

# The probe report's one schema, read from the "Probe report" table of docs/results-format.md: each
# field's JSON types and when it is written. `problems` lists what keeps a report from matching it: a
# field the table does not list, one it lists for the report's conditions but missing, one of another type.
module ProbeSchema
  DOC = File.join(File.expand_path("../..", __dir__), "docs/results-format.md")
  TYPES = {"integer" => [Integer], "number" => [Integer, Float], "string" => [String], "boolean" => [TrueClass, FalseClass],
           "object" => [Hash], "list" => [Array], "null" => [NilClass]}.freeze
  Field = Struct.new(:name, :types, :written, keyword_init: true)

  module_function

  def fields
    @fields ||= begin
      section = File.read(DOC, encoding: Encoding::UTF_8).split(/^## /).find { |s| s.start_with?("Probe report") } || raise("no Probe report section in #{DOC}")
      section.lines.grep(/^\| `/).map do |row|
        name, type, written = row.split(" | ").first(3)
        types = type.split(" or ").flat_map { |t| TYPES.fetch(t) { raise "#{name}: unknown type #{t}" } }
        Field.new(name: name[/`([^`]+)`/, 1], types: types, written: written).freeze
      end
    end
  end

  # conditions: which `written` values hold for the report (e.g. %w[always exit]); records: the names
  # of the records it holds.
  def problems(report, conditions:, records: [])
    expected = fields.select { |f| conditions.include?(f.written) || (f.written == "record" && records.include?(f.name)) }
    actual = flatten(report)
    missing = (expected.map(&:name) - actual.keys).map { |name| "#{name}: missing" }
    extra = (actual.keys - expected.map(&:name)).map { |name| "#{name}: not in the schema for #{conditions.join(", ")}" }
    wrong = expected.filter_map do |f|
      next unless actual.key?(f.name) && f.types.none? { |type| actual[f.name].is_a?(type) }
      "#{f.name}: #{actual[f.name].inspect} is not #{f.types.map(&:name).join(" or ")}"
    end
    missing + extra + wrong
  end

  # Top-level members, and the members of those the schema gives nested fields for ("gc.count").
  def flatten(report)
    parents = fields.map(&:name).select { |n| n.include?(".") }.map { |n| n.split(".").first }.uniq
    report.each_with_object({}) do |(key, value), acc|
      acc[key] = value
      value.each { |k, v| acc["#{key}.#{k}"] = v } if parents.include?(key) && value.is_a?(Hash)
    end
  end
end

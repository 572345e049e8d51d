# docs/architecture.md is true: its table says what each part of lib/rubyrig may name of the rest of
# rubyrig, and this test reads the table and the code (constant references, comments and strings
# apart) and fails on a reference the table does not allow, or on a part the table leaves out. The
# probe, loaded into measured processes, requires only the standard library and its own files.
require "test_helper"
require "ripper"
require "rbconfig"

class DependenciesTest < Minitest::Test
  DOC = File.join(RubyrigTest::ROOT, "docs", "architecture.md")
  LIB = File.join(RubyrigTest::ROOT, "lib", "rubyrig")
  # What the probe's diagnostics load from the per-runtime folder they are given, and what ruby-bench's
  # use_gemfile needs: required only when a run asks for them.
  PROBE_GEMS = %w[gvltools gvl-tracing stackprof vernier bundler].freeze

  Row = Struct.new(:paths, :allowed, keyword_init: true)

  def test_every_file_names_only_what_its_row_allows
    Rubyrig::LOADER.eager_load
    wrong = rows.flat_map do |row|
      files(row.paths).flat_map do |path|
        (named(path) - row.allowed).map { |name| "#{path.delete_prefix("#{LIB}/")} names #{name}, not in its row (#{row.allowed.join(", ")})" }
      end
    end
    assert_empty wrong, "change the code, or docs/architecture.md if the dependency is meant"
  end

  def test_every_part_of_lib_has_a_row
    covered = rows.flat_map(&:paths).map { |p| p.chomp("/").delete_suffix(".rb") }
    parts = Dir.children(LIB).select { |c| c.end_with?(".rb") || File.directory?(File.join(LIB, c)) }
    missing = parts.reject { |c| covered.include?(c.delete_suffix(".rb")) }
    assert_empty missing, "add a row to docs/architecture.md's table for each"
  end

  def test_the_rules_the_document_states_are_in_the_table
    allowed = rows.to_h { |row| [row.paths.first, row.allowed] }
    %w[analysis.rb reporters.rb].each do |part|
      assert_empty allowed.fetch(part) & %w[Kinds Run Services Commands CLI], "#{part} must not name the run or the kinds"
    end
    refute_includes allowed.fetch("reporters.rb"), "Stats"
    refute_includes allowed.fetch("services/"), "Kinds"
    assert_empty allowed.fetch("processes/")
    assert_empty allowed.fetch("probe/")
  end

  def test_the_probe_requires_only_the_standard_library_and_its_own_files
    probe = File.join(LIB, "probe")
    wrong = Dir[File.join(probe, "**", "*.rb")].flat_map do |path|
      source = Rubyrig::Processes::TextFile.read(path)
      literal = source.scan(/^\s*require\s+["']([^"']+)["']/).flatten.reject { |lib| stdlib?(lib) || PROBE_GEMS.include?(lib) }
      relative = source.scan(/require\s+File\.expand_path\(["']([^"']+)["'], File\.dirname\(__FILE__\)\)/).flatten
        .reject { |rel| File.expand_path(rel, File.dirname(path)).start_with?("#{probe}/") }
      (literal + relative).map { |lib| "#{path.delete_prefix("#{LIB}/")} requires #{lib}" }
    end
    assert_empty wrong
  end

  def test_a_reference_is_the_first_constant_of_a_path_and_not_a_nested_one
    source = "# Kinds in a comment\nx = \"Services\"\nRubyrig::Run::Runner.new\nResults::Store\nStore::Results\n:Analysis\n"
    assert_equal %w[Results Run], references(source, own: nil).sort
  end

  private

  # The table under "Where things live": backticked paths in the first column, backticked namespaces
  # (or "nothing") in the last.
  def rows
    @rows ||= begin
      section = Rubyrig::Processes::TextFile.read(DOC)[/^## Where things live$(.*?)^## /m, 1]
      section.lines.grep(/^\| `/).map do |line|
        cells = line.split(" | ")
        Row.new(paths: cells.first.scan(/`([^`]+)`/).flatten, allowed: cells.last.scan(/`([A-Z]\w*)`/).flatten)
      end
    end
  end

  # The Ruby files of a row: a folder "x/" holds x.rb too.
  def files(paths)
    paths.flat_map do |path|
      if path.end_with?("/")
        [File.join(LIB, "#{path.chomp("/")}.rb"), *Dir[File.join(LIB, path, "**", "*.rb")]].select { |f| File.file?(f) }
      else
        [File.join(LIB, path)]
      end
    end.uniq
  end

  # The top-level namespaces of rubyrig a file names, apart from its own and the constants nested in it.
  def named(path)
    own = path.delete_prefix("#{LIB}/").split("/").first.delete_suffix(".rb")
    own = (own == "cli") ? "CLI" : own.split("_").map(&:capitalize).join
    references(Rubyrig::Processes::TextFile.read(path), own: own)
  end

  def references(source, own:)
    nested = (own && Rubyrig.const_defined?(own, false) && Rubyrig.const_get(own).is_a?(Module)) ? Rubyrig.const_get(own).constants.map(&:to_s) : []
    tokens = Ripper.lex(source).reject { |(_, type, _)| %i[on_sp on_nl on_ignored_nl on_comment].include?(type) }
    tokens.each_with_index.filter_map do |(_, type, name), i|
      next unless type == :on_const && namespaces.include?(name) && name != own && !nested.include?(name)
      before = tokens[i - 1] if i.positive?
      next if before && before[1] == :on_symbeg
      next if before && before[2] == "::" && !(i > 1 && tokens[i - 2][2] == "Rubyrig")
      name
    end.uniq
  end

  # Rubyrig's top-level namespaces (modules and classes that are not errors).
  def namespaces
    @namespaces ||= Rubyrig.constants.map { |c| Rubyrig.const_get(c) }.select { |c| c.is_a?(Module) && !(c <= Exception) }
      .map { |c| c.name.split("::").last }
  end

  def stdlib?(feature)
    [RbConfig::CONFIG["rubylibdir"], RbConfig::CONFIG["archdir"]].any? do |dir|
      File.exist?(File.join(dir, "#{feature}.rb")) || File.exist?(File.join(dir, "#{feature}.#{RbConfig::CONFIG["DLEXT"]}"))
    end
  end
end

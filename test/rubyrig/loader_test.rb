# Every constant lives where its name says: eager loading the whole gem through Zeitwerk fails on a file
# that does not define the constant its path names, and code that runs inside measured processes stays
# outside the loader.
require "test_helper"
require "parser/current"

class LoaderTest < Minitest::Test
  LIB = File.join(RubyrigTest::ROOT, "lib", "rubyrig")

  def test_every_file_defines_the_constant_its_path_names
    Rubyrig::LOADER.eager_load(force: true)
    assert defined?(Rubyrig::Results::Store)
    assert defined?(Rubyrig::Processes::Child)
  end

  # Eager loading passes when a file also defines a sibling (Drivers::DiagnosticsSetup in context.rb), but
  # the sibling is then found only after its host file happens to be loaded: each file defines its own
  # constant, the namespaces around it and constants nested in it, nothing else.
  def test_no_file_defines_a_constant_another_file_should_hold
    misplaced = managed_files.flat_map do |path|
      expected = expected_constant(path)
      defined_constants(Parser::CurrentRuby.parse(Rubyrig::Processes::TextFile.read(path))).reject do |name|
        name == expected || expected.start_with?("#{name}::") || name.start_with?("#{expected}::")
      end.map { |name| "#{path.delete_prefix("#{RubyrigTest::ROOT}/")} defines #{name}, not #{expected}" }
    end
    assert_empty misplaced
  end

  def test_no_constant_shadows_a_core_module
    %i[Process Monitor].each do |name|
      refute Rubyrig.const_defined?(name, false), "Rubyrig::#{name} would shadow ::#{name} inside Rubyrig"
    end
  end

  # Were these folders and files managed, their constants (Rubyrig::Probe, Rubyrig::Processes::Watchdog...)
  # would be defined or set to autoload; const_defined? is true for either.
  def test_code_run_inside_measured_processes_is_not_managed
    %i[Probe Workloads Sidekiq].each do |name|
      assert File.directory?(File.join(LIB, name.to_s.downcase)), name
      refute Rubyrig.const_defined?(name, false), "lib/rubyrig/#{name.to_s.downcase} must stay outside the loader"
    end
    {Rubyrig::Processes => :Watchdog, Rubyrig::Services => :StubServer}.each do |namespace, name|
      refute namespace.const_defined?(name, false), "#{namespace}::#{name} must stay outside the loader"
    end
  end

  private

  # Every Ruby file the loader manages, the root file apart (it defines Rubyrig and the error classes).
  def managed_files
    outside = Rubyrig::OUTSIDE_LOADER.map { |path| File.join(LIB, path) }
    Dir[File.join(LIB, "**", "*.rb")].sort.reject { |path| outside.any? { |o| path == o || path.start_with?("#{o}/") } }
  end

  def expected_constant(path)
    segments = path.delete_prefix("#{File.dirname(LIB)}/").delete_suffix(".rb").split("/")
    dirs = segments[0..-2].each_with_index.map { |s, i| Rubyrig::LOADER.inflector.camelize(s, File.join(File.dirname(LIB), *segments[0..i])) }
    (dirs + [Rubyrig::LOADER.inflector.camelize(segments.last, path)]).join("::")
  end

  # The full names of the classes, modules and constants a file defines outside method bodies and blocks.
  def defined_constants(node, nesting = [])
    return [] unless node.is_a?(Parser::AST::Node)
    case node.type
    when :class, :module
      name = nesting + [const_path(node.children[0])]
      [name.join("::")] + node.children.drop(1).flat_map { |child| defined_constants(child, name) }
    when :casgn then [(nesting + [const_path(node.children[0]), node.children[1].to_s].compact).join("::")]
    when :def, :defs, :block, :sclass then []
    else node.children.flat_map { |child| defined_constants(child, nesting) }
    end
  end

  def const_path(node)
    return nil unless node.is_a?(Parser::AST::Node) && node.type == :const
    [const_path(node.children[0]), node.children[1].to_s].compact.join("::")
  end
end

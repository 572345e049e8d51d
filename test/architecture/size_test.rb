# The size limits of the project's rules, read from the code: no file under lib/ over 300 lines and no
# method over 30 lines, not counting the body of a heredoc (templates such as a YAML manifest).
require "test_helper"
require "parser/current"

class SizeTest < Minitest::Test
  MAX_FILE_LINES = 300
  MAX_METHOD_LINES = 30
  FILES = Dir[File.join(RubyrigTest::ROOT, "lib", "**", "*.rb")].sort

  def test_no_file_is_over_the_limit
    long = FILES.filter_map do |path|
      lines = File.foreach(path).count
      "#{relative(path)}: #{lines} lines" if lines > MAX_FILE_LINES
    end
    assert_empty long, "split these files (#{MAX_FILE_LINES} lines at most)"
  end

  def test_no_method_is_over_the_limit
    long = FILES.flat_map do |path|
      methods(Parser::CurrentRuby.parse(Rubyrig::Processes::TextFile.read(path))).filter_map do |node, name|
        lines = method_lines(node)
        "#{relative(path)}:#{node.loc.line} #{name}: #{lines} lines" if lines > MAX_METHOD_LINES
      end
    end
    assert_empty long, "split these methods (#{MAX_METHOD_LINES} lines at most, heredoc bodies apart)"
  end

  def test_a_heredoc_body_is_not_counted_but_the_code_around_it_is
    template = "def manifest\n  <<~YAML\n#{"    key: value\n" * 40}  YAML\nend\n"
    node, = methods(Parser::CurrentRuby.parse(template)).first
    assert_equal 4, method_lines(node)
    code = "def long\n#{"  x = 1\n" * 40}end\n"
    node, = methods(Parser::CurrentRuby.parse(code)).first
    assert_equal 42, method_lines(node)
  end

  private

  def relative(path) = path.delete_prefix("#{RubyrigTest::ROOT}/")

  # [node, name] of every def and def self. in the tree.
  def methods(node)
    return [] unless node.is_a?(Parser::AST::Node)
    own = case node.type
    when :def then [[node, node.children[0]]]
    when :defs then [[node, "self.#{node.children[1]}"]]
    else []
    end
    own + node.children.flat_map { |child| methods(child) }
  end

  # The lines from def to end, less the lines inside the heredoc bodies of the method.
  def method_lines(node)
    range = node.loc.expression
    range.last_line - range.first_line + 1 - heredoc_lines(node)
  end

  def heredoc_lines(node)
    return 0 unless node.is_a?(Parser::AST::Node)
    loc = node.loc
    if loc.respond_to?(:heredoc_body) && loc.heredoc_body
      loc.heredoc_body.source.count("\n")
    else
      node.children.sum { |child| heredoc_lines(child) }
    end
  end
end

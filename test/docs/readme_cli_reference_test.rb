# Checks that the README's CLI reference is what `rubyrig --help` and each `rubyrig COMMAND --help` print.
require "test_helper"

class ReadmeCliReferenceTest < Minitest::Test
  include RubyrigTest

  README = File.join(RubyrigTest::ROOT, "README.md")

  # The ```text block after each heading of the CLI reference, by command ("" for `rubyrig --help`).
  def self.reference_blocks
    text = Rubyrig::Processes::TextFile.read(README)
    reference = text[/^## CLI reference\n(.*?)(?=^## )/m, 1] or raise "README has no CLI reference"
    blocks = {"" => reference[/\A.*?```text\n(.*?)```/m, 1]}
    reference.scan(/^### `rubyrig (\w+)`\n.*?```text\n(.*?)```/m) { |name, block| blocks[name] = block }
    blocks
  end

  def test_every_command_has_its_help_in_the_readme
    commands = Rubyrig::CLI::COMMANDS.keys
    assert_equal commands.sort, (self.class.reference_blocks.keys - [""]).sort
  end

  reference_blocks.each do |name, block|
    define_method("test_readme_shows_the_help_of_#{name.empty? ? "rubyrig" : name}") do
      status, out, = run_cli(*[name, "--help"].reject(&:empty?), env: {"COLUMNS" => "100"})
      assert_equal 0, status
      # The help names the cache directory it will use and the demo's file in this checkout; the README
      # writes the home directory as "~" and the checkout, wherever it is, as "<checkout>".
      assert_equal out.gsub(RubyrigTest::ROOT, "<checkout>").gsub(Dir.home, "~"), block, "README's block for `rubyrig #{name} --help` differs from the output; paste the output"
    end
  end
end

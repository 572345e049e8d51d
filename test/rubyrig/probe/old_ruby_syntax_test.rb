require "test_helper"
require "parser/ruby25"

# The code rubyrig loads into measured processes must parse as Ruby 2.5, the oldest Ruby its headers
# promise (JRuby 9.2 and 9.3 are at the 2.5 and 2.6 level); diagnostics.rb runs on CRuby 3.1+ only.
class OldRubySyntaxTest < Minitest::Test
  FILES = %w[probe.rb harness.rb params.rb fingerprint.rb loader.rb ruby_bench/harness.rb benchmark_ips/benchmark/ips.rb extras.rb]
    .map { |f| File.join(RubyrigTest::ROOT, "lib/rubyrig/probe", f) }

  def test_probe_files_parse_as_ruby_2_5
    FILES.each do |file|
      parser = Parser::Ruby25.new
      parser.diagnostics.all_errors_are_fatal = true
      parser.diagnostics.consumer = ->(_diagnostic) {}
      buffer = Parser::Source::Buffer.new(file, source: Rubyrig::Processes::TextFile.read(file))
      parser.parse(buffer)
    rescue Parser::SyntaxError => e
      flunk "#{file}: not Ruby 2.5 syntax: #{e.message}"
    end
  end

  def test_the_headers_say_so
    (FILES.first(2) + FILES.last(2)).each { |file| assert_match(/Ruby 2\.5/, Rubyrig::Processes::TextFile.read(file).lines.first(12).join, file) }
  end
end

# The registry of runtime variants: every variant keeps the Variant contract, spec parsing and
# `compare --help` come from it, each variant's variables are cleared from an inherited environment,
# and a variant that no probe of a batch could confirm says so.
require "test_helper"

class VariantsTest < Minitest::Test
  Variants = Rubyrig::Runtimes::Variants

  def test_every_variant_keeps_the_contract
    assert_equal %w[yjit yjit-mem yjit-stats jemalloc mn], Variants.names
    Variants.all.each do |variant|
      assert_kind_of Rubyrig::Runtimes::Variant, variant
      assert_match(/\A\+#{Regexp.escape(variant.key)}(=\S+)?\z/, variant.help, variant.key)
      assert(variant.value.nil? || variant.help.include?("="), "#{variant.key}: a variant that takes a value shows it in its help")
      assert_kind_of Array, variant.env_names
    end
    assert_equal "+yjit, +yjit-mem=MiB, +yjit-stats, +jemalloc, +mn", Variants.help
  end

  def test_a_spec_is_checked_against_the_registry
    assert_equal({"yjit-mem" => "16", "mn" => true}, Rubyrig::Experiment::Runtime.parse("3.3.8+yjit-mem=16+mn").variants)
    assert_match(/unknown variant \+yjt in runtime '3.3.8\+yjt'; did you mean \+yjit\?/, assert_raises(Rubyrig::RuntimeSpecError) { Rubyrig::Experiment::Runtime.parse("3.3.8+yjt") }.message)
    assert_match(/\+mn takes no value; write \+mn/, assert_raises(Rubyrig::RuntimeSpecError) { Rubyrig::Experiment::Runtime.parse("3.3.8+mn=2") }.message)
    assert_match(/\+yjit-mem needs a size in MiB/, assert_raises(Rubyrig::RuntimeSpecError) { Rubyrig::Experiment::Runtime.parse("3.3.8+yjit-mem=0") }.message)
  end

  def test_each_variants_variables_are_cleared_whether_or_not_it_is_asked_for
    interpreter = Rubyrig::Runtimes::Interpreter.new(name: "3.3.8", path: "/r/bin/ruby", engine: "ruby", version: "3.3.8", yjit: true)
    launch = Rubyrig::Runtimes::Launch.compose(Rubyrig::Experiment::Runtime.parse("3.3.8"), interpreter, jemalloc: nil)
    %w[RUBY_YJIT_ENABLE LD_PRELOAD RUBY_MN_THREADS].each { |name| assert_nil launch.env.fetch(name), name }
  end

  def test_mn_that_no_probe_could_confirm_is_a_warning
    interpreter = Rubyrig::Runtimes::Interpreter.new(name: "3.3.8", path: "/r/bin/ruby", engine: "ruby", version: "3.3.8", yjit: true)
    launch = Rubyrig::Runtimes::Launch.compose(Rubyrig::Experiment::Runtime.parse("3.3.8+mn"), interpreter, jemalloc: nil)
    assert_empty launch.unverified([{"mn_active" => true}])
    assert_empty launch.unverified([])
    assert_match(/M:N threads could not be checked inside the process/, launch.unverified([{"pid" => 1}]).first)
  end
end

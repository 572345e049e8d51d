require "test_helper"

class RuntimeTest < Minitest::Test
  def test_plain_spec_is_its_own_label
    r = Rubyrig::Experiment::Runtime.parse("3.3.8+yjit+jemalloc")
    assert_equal "3.3.8+yjit+jemalloc", r.label
    assert_equal "3.3.8", r.base
    assert_equal({"yjit" => true, "jemalloc" => true}, r.variants)
    assert r.frozen?
  end

  def test_label_prefix
    r = Rubyrig::Experiment::Runtime.parse("a=system")
    assert_equal "a", r.label
    assert_equal "system", r.base
  end

  def test_variant_with_value
    assert_equal({"yjit-mem" => "32"}, Rubyrig::Experiment::Runtime.parse("system+yjit-mem=32").variants)
  end

  def test_path_base_keeps_its_slashes
    r = Rubyrig::Experiment::Runtime.parse("/opt/rubies/ruby-3.1.2/bin/ruby+yjit")
    assert_equal "/opt/rubies/ruby-3.1.2/bin/ruby", r.base
    assert_equal "/opt/rubies/ruby-3.1.2/bin/ruby+yjit", r.label
  end

  def test_env_and_flags_are_strings
    r = Rubyrig::Experiment::Runtime.parse("system", env: {RUBY_GC_HEAP_GROWTH_FACTOR: 1.2}, flags: [:"--disable-gems"])
    assert_equal({"RUBY_GC_HEAP_GROWTH_FACTOR" => "1.2"}, r.env)
    assert_equal ["--disable-gems"], r.flags
  end

  def test_bad_specs_name_the_fix
    e = assert_raises(Rubyrig::RuntimeSpecError) { Rubyrig::Experiment::Runtime.parse("") }
    assert_match(/give one like system/, e.message)
    e = assert_raises(Rubyrig::RuntimeSpecError) { Rubyrig::Experiment::Runtime.parse("+yjit") }
    assert_match(/no interpreter before '\+'/, e.message)
    e = assert_raises(Rubyrig::RuntimeSpecError) { Rubyrig::Experiment::Runtime.parse("system+YJIT!") }
    assert_match(/bad variant 'YJIT!'/, e.message)
  end
end

class RuntimeExpandTest < Minitest::Test
  def test_a_list_of_values_names_one_runtime_each
    assert_equal %w[3.3.8+yjit-mem=16 3.3.8+yjit-mem=32 3.3.8+yjit-mem=64], Rubyrig::Experiment::Runtime.expand("3.3.8+yjit-mem=16,32,64")
    assert_equal ["system+yjit"], Rubyrig::Experiment::Runtime.expand("system+yjit")
  end

  def test_an_expanding_spec_cannot_carry_one_label
    e = assert_raises(Rubyrig::RuntimeSpecError) { Rubyrig::Experiment::Runtime.expand("a=3.3.8+yjit-mem=16,32") }
    assert_match(/cannot take one label/, e.message)
  end
end

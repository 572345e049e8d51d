require "test_helper"

# +jemalloc is verified from inside the process; a variant that cannot hold fails its batches with the
# reason, while the other runtimes still run.
class JemallocTest < Minitest::Test
  include SlowTest

  def compare(env: {})
    dir = tmpdir
    status, out, err = run_cli("compare", "-r", "system", "-r", "system+jemalloc", "--batches", "1",
      "--iterations", "2", "--warmup", "0", "--param", "objects=20000", "--results", File.join(dir, "run"),
      "--", "builtin:alloc-churn", env: env)
    [status, out, err, trial_lines(File.join(dir, "run"))]
  end

  def test_the_probe_confirms_jemalloc
    needs(Rubyrig::Runtimes::Jemalloc.new.path, "libjemalloc is not installed")
    status, _, err, trials = compare
    assert_equal 0, status, err
    jemalloc = trials.find { |t| t["runtime"] == "system+jemalloc" }
    assert_equal "ok", jemalloc["status"]
    assert_equal "jemalloc", jemalloc.dig("facts", "allocator")
    assert_nil trials.find { |t| t["runtime"] == "system" }.dig("facts", "allocator"), "read only where one is expected"
  end

  def test_no_library_fails_the_batch_with_the_fix
    status, out, err, trials = compare(env: {"RUBYRIG_JEMALLOC" => "/nonexistent/libjemalloc.so.2"})
    assert_equal 1, status
    failed = trials.find { |t| t["runtime"] == "system+jemalloc" }
    assert_equal "failed", failed["status"]
    assert_match(%r{wants jemalloc, but RUBYRIG_JEMALLOC names /nonexistent/libjemalloc.so.2, which does not exist}, failed["reason"])
    assert_equal "ok", trials.find { |t| t["runtime"] == "system" }["status"]
    assert_match(/1 batch failed/, err)
    assert_match(/Warnings:/, out)
  end

  def test_a_library_that_is_not_jemalloc_is_caught_by_the_probe
    libm = Dir.glob("/usr/lib/*-linux-gnu/libm.so.6").first || skip("no libm.so.6 found")
    _, _, _, trials = compare(env: {"RUBYRIG_JEMALLOC" => libm})
    failed = trials.find { |t| t["runtime"] == "system+jemalloc" }
    assert_equal "failed", failed["status"]
    assert_equal "+jemalloc was requested, but glibc malloc is in use", failed["reason"]
  end
end

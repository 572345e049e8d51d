require "test_helper"

class CLITest < Minitest::Test
  def test_help_names_the_commands
    status, out, = run_cli("--help")
    assert_equal 0, status
    %w[compare run report runtimes build doctor demo workloads].each { |c| assert_match(/^  #{c} /, out) }
  end

  def test_version
    assert_equal [0, "rubyrig #{Rubyrig::VERSION}\n", ""], run_cli("--version")
  end

  def test_unknown_command_suggests
    status, _, err = run_cli("compair")
    assert_one_line_error(status, err, /unknown command 'compair'; did you mean 'compare'\?/, expected_status: 2)
  end

  def test_a_mistyped_flag_names_the_flag_it_resembles_on_one_line
    status, _, err = run_cli("compare", "--batchs", "3", "-r", "system", "--", "builtin:nbody")
    assert_one_line_error(status, err, /invalid option: --batchs \(did you mean --batches\?\); see `rubyrig compare --help`$/,
      expected_status: 2)
    refute_includes err, "\\n"
  end

  def test_unknown_key_in_a_file
    path = write(tmpdir, "exp.yml", "runtimes: [system]\nworkloads: [builtin:nbody]\nseeed: 3\n")
    status, _, err = run_cli("run", path)
    assert_one_line_error(status, err, /exp\.yml:3: unknown key 'seeed' in the top level; did you mean 'seed'\?/)
  end

  def test_wrong_type_in_a_file
    path = write(tmpdir, "exp.yml", "runtimes: [system]\nworkloads: [builtin:nbody]\ntimeout_s: soon\n")
    status, _, err = run_cli("run", path)
    assert_one_line_error(status, err, /exp\.yml:3: timeout_s must be a positive number of seconds, got "soon"/)
  end

  def test_empty_matrix_from_the_command_line
    status, _, err = run_cli("compare", "-r", "system", "--param", "steps=", "--", "builtin:nbody")
    assert_one_line_error(status, err, /--param steps has an empty value in 'steps='; write e\.g\. --param steps=1,2/, expected_status: 2)
  end

  def test_flag_errors_name_the_flag_and_are_usage_errors
    {
      ["--cpus", "0-1-2"] => /\Arubyrig: error: --cpus needs a CPU list such as 1, 0-1 or 0,2-3, got "0-1-2"$/,
      ["--param", "stepz=5"] => /\Arubyrig: error: --param stepz is not a parameter of builtin:nbody; did you mean 'steps'\?$/,
      ["--trace", "perfetto"] => /\Arubyrig: error: --trace must be one of gvl, got 'perfetto'; known: gvl$/,
      ["--profile", "stackprf"] => /\Arubyrig: error: --profile must be one of stackprof, vernier, got 'stackprf'; did you mean 'stackprof'\?$/,
      ["-r", "system+yjt"] => /\Arubyrig: error: -r: unknown variant \+yjt in runtime 'system\+yjt'; did you mean \+yjit\?$/,
      ["--batches", "0"] => /\Arubyrig: error: --batches must be a positive integer, got 0/
    }.each do |(flag, value), pattern|
      args = (flag == "-r") ? ["-r", value] : ["-r", "system", flag, value]
      status, _, err = run_cli("compare", *args, "--results", File.join(tmpdir, "r"), "--", "builtin:nbody")
      assert_one_line_error(status, err, pattern, expected_status: 2)
    end
  end

  # A ruby-bench checkout after -- is a script workload whose --param bench names the benchmarks.
  def test_a_ruby_bench_checkout_needs_bench_names_it_has
    root = tmpdir
    write(root, "benchmarks/fib.rb", "require_relative '../harness/loader'\nrun_benchmark(1) { }\n")
    status, _, err = run_cli("compare", "-r", "system", "--param", "bench=fib,fibb", "--results", File.join(tmpdir, "r"), "--", root)
    assert_one_line_error(status, err, /\Arubyrig: error: --param bench names 'fibb', which is neither a benchmark nor a category of #{root}; did you mean 'fib'\?$/, expected_status: 2)
  end

  def test_seconds_per_item_belong_to_benchmark_ips_files
    file = write(tmpdir, "bench.rb", "Rubyrig.bench { }\n")
    status, _, err = run_cli("compare", "-r", "system", "--duration-s", "2", "--results", File.join(tmpdir, "r"), "--", file)
    assert_one_line_error(status, err, /\Arubyrig: error: --duration-s applies to benchmark-ips and ruby-bench files only; this file uses the rubyrig harness$/, expected_status: 2)
  end

  def test_fractions_of_a_second_are_for_benchmark_ips_and_whole_seconds_for_wrk
    status, _, err = run_cli("compare", "-r", "system", "--warmup-s", "0.5", "--results", File.join(tmpdir, "r"), "--", "builtin:rack-hello")
    assert_one_line_error(status, err, /\Arubyrig: error: --warmup-s must be a whole number of seconds, 0 or more \(wrk takes whole seconds\), got 0\.5$/, expected_status: 2)
    file = write(tmpdir, "ips.rb", "require 'benchmark/ips'\nBenchmark.ips { |x| x.report('a') { } }\n")
    status, out, err = run_cli("compare", "-r", "system", "--duration-s", "x", "--", file)
    assert_one_line_error(status, err, /invalid argument: --duration-s x/, expected_status: 2)
    assert_empty out
  end

  def test_an_offered_rate_needs_the_open_loop
    status, _, err = run_cli("compare", "-r", "system", "--param", "rate=10,20", "--results", File.join(tmpdir, "r"), "--", "builtin:rack-hello")
    assert_one_line_error(status, err, /\Arubyrig: error: --param rate is an offered rate, which a closed loop does not have: add load_model: open, or remove rate$/, expected_status: 2)
    status, _, err = run_cli("compare", "-r", "system", "--load-model", "opened", "--results", File.join(tmpdir, "r"), "--", "builtin:rack-hello")
    assert_one_line_error(status, err, /\Arubyrig: error: --load-model "opened" is not a load model; use closed .* or open/, expected_status: 2)
  end

  def test_bad_option_value_is_a_usage_error
    status, _, err = run_cli("compare", "-r", "system", "--batches", "many", "--", "builtin:nbody")
    assert_one_line_error(status, err, /invalid argument: --batches many; see `rubyrig compare --help`/, expected_status: 2)
  end

  def test_missing_workload_and_runtime
    status, _, err = run_cli("compare", "-r", "system")
    assert_one_line_error(status, err, /give the workload after --, e\.g\. -- builtin:nbody/, expected_status: 2)
    status, _, err = run_cli("compare", "--", "builtin:nbody")
    assert_one_line_error(status, err, /give at least one runtime with -r/, expected_status: 2)
  end

  def test_report_of_something_that_is_not_a_run
    status, _, err = run_cli("report", tmpdir)
    assert_one_line_error(status, err, /is not a rubyrig results directory/)
  end

  def test_compare_help_names_every_default
    status, out, = run_cli("compare", "--help")
    assert_equal 0, status
    assert_match(/default: 5\)/, out)
    assert_match(/default: the first -r/, out)
    assert_match(/default: random, recorded/, out)
    assert_match(/default: no pinning/, out)
  end

  def test_arguments_that_are_not_utf8_are_refused_in_one_line
    status, _, err = run_cli("compare", "-r", "system", "--", "b\xFFd.rb".b)
    assert_one_line_error(status, err, /argument "b\\uFFFDd\.rb" is not valid UTF-8; rubyrig reads arguments and file names as UTF-8/, expected_status: 2)
  end

  # Found by the fuzz test (test/integration/fuzz_test.rb): each was a backtrace or a hang before.

  def test_an_argument_with_a_nul_byte_is_refused_in_one_line
    status, _, err = run_cli("compare", "-r", "system", "x\0y", "--", "true")
    assert_one_line_error(status, err, /argument "x\\x00y" holds a NUL byte, which no file name or program argument can; remove it/, expected_status: 2)
  end

  def test_an_absurd_number_of_batches_is_refused_before_planning
    status, _, err = run_cli("compare", "-r", "system", "-b", "99999999999999999999", "--results", File.join(tmpdir, "r"), "--", "true")
    assert_one_line_error(status, err, /--batches must be at most 10000, got 99999999999999999999/, expected_status: 2)
    path = write(tmpdir, "exp.yml", "runtimes: [system]\nworkloads: [{command: \"true\"}]\nbatches: 10001\n")
    status, _, err = run_cli("run", path)
    assert_one_line_error(status, err, /exp\.yml:3: batches must be at most 10000, got 10001/)
  end

  def test_an_export_that_cannot_be_written_is_refused_before_the_run
    dir = tmpdir
    {
      File.join(dir, "no", "such", "x.html") => /--export-html #{Regexp.escape(dir)}\/no\/such\/x\.html is in #{Regexp.escape(dir)}\/no\/such, which does not exist; create it first/,
      dir => /--export-html #{Regexp.escape(dir)} is a directory; give a file in a writable folder/,
      "" => /--export-html needs a file name/
    }.each do |path, pattern|
      status, _, err = run_cli("compare", "-r", "system", "--export-html", path, "--results", File.join(dir, "r"), "--", "true")
      assert_one_line_error(status, err, pattern, expected_status: 2)
      refute File.exist?(File.join(dir, "r")), "refused before the run started"
    end
  end

  def test_an_experiment_file_name_too_long_to_open_is_one_line
    status, _, err = run_cli("run", "x" * 300)
    assert_one_line_error(status, err, /cannot read experiment file x+: File name too long/)
  end

  def test_yaml_nested_past_reason_is_one_line
    path = write(tmpdir, "deep.yml", "runtimes: [system]\nworkloads: #{"[" * 3000}#{"]" * 3000}\n")
    status, _, err = run_cli("run", path)
    assert_one_line_error(status, err, /deep\.yml: values nest more than 64 levels deep/)
    path = write(tmpdir, "deep2.yml", "runtimes: [system]\nworkloads:\n" + (1..70).map { |i| "#{"  " * i}- " }.join("\n") + "x\n")
    status, _, err = run_cli("run", path)
    assert_one_line_error(status, err, /deep2\.yml:\d+: values nest more than 64 levels deep/)
  end

  def test_configure_options_with_an_unmatched_quote_are_refused_before_any_build
    status, _, err = run_cli("build", "9.9.9", "--configure-opts", "\"x")
    assert_one_line_error(status, err, /--configure-opts has an unmatched quote in "\\"x"; close it/, expected_status: 2)
  end
end

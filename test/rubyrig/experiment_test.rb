require "test_helper"

class ExperimentTest < Minitest::Test
  def load(yaml)
    dir = tmpdir
    @path = write(dir, "exp.yml", yaml)
    Rubyrig::Experiment.load(@path)
  end

  def error(yaml)
    assert_raises(Rubyrig::ExperimentError) { load(yaml) }.message
  end

  def test_a_complete_file
    exp = load(<<~YAML)
      name: mtime
      runtimes:
        - system
        - spec: system+yjit
          label: yjit
          env: {RUBY_GC_HEAP_GROWTH_FACTOR: 1.2}
      baseline: yjit
      workloads:
        - builtin: mtime-threads
          params: {threads: [1, 2], calls: 1000}
          iterations: 3
      batches: 2
      seed: 9
    YAML
    assert_equal "mtime", exp.name
    assert_equal %w[system yjit], exp.runtimes.map(&:label)
    assert_equal "yjit", exp.baseline
    assert_equal({"RUBY_GC_HEAP_GROWTH_FACTOR" => "1.2"}, exp.runtimes[1].env)
    workload = exp.workloads.first
    assert_equal "builtin:mtime-threads", workload.name
    assert_equal "script", workload.kind
    assert_equal({"threads" => [1, 2], "calls" => [1000]}, workload.params)
    assert_equal 3, workload.iterations
    assert_equal 2, workload.warmup, "the built-in's default warmup applies"
    assert_equal [{"threads" => 1, "calls" => 1000}, {"threads" => 2, "calls" => 1000}], workload.param_combinations
    assert_equal 2, exp.batches
    assert_equal 9, exp.seed
  end

  def test_defaults
    exp = load("runtimes: [system]\nworkloads: [builtin:nbody]\n")
    assert_equal "system", exp.baseline
    assert_equal 5, exp.batches
    assert_kind_of Integer, exp.seed
    assert_equal "exp", exp.name
  end

  def test_inherit_env_names_variables_and_prefixes
    assert_equal [], load("runtimes: [system]\nworkloads: [builtin:nbody]\n").inherit_env
    assert_equal %w[DATABASE_URL AWS_*], load("runtimes: [system]\nworkloads: [builtin:nbody]\ninherit_env: [DATABASE_URL, AWS_*]\n").inherit_env
    message = error("runtimes: [system]\nworkloads: [builtin:nbody]\ninherit_env: [\"A=B\"]\n")
    assert_match(/exp\.yml:3: inherit_env must list variable names such as DATABASE_URL or AWS_\* \(a prefix\), got "A=B"/, message)
  end

  # Found by the fuzz test: these reached File.join or exec and raised ArgumentError there.
  def test_a_nul_byte_anywhere_is_refused_with_its_line
    message = error("runtimes: [system]\nworkloads:\n  - command: [/bin/echo, \"a\\x00b\"]\n")
    assert_equal "#{@path}:3: command holds a NUL byte (\"a\\x00b\"), which no file name, argument or environment variable can; remove it", message
    assert_match(/exp\.yml:2: builtin holds a NUL byte/, error("runtimes: [system]\nworkloads: [{builtin: \"\\0\"}]\n"))
  end

  def test_a_command_line_with_an_unmatched_quote_is_refused_with_its_line
    message = error("runtimes: [system]\nworkloads:\n  - command: \"echo 'a\"\n")
    assert_equal "#{@path}:3: command has an unmatched quote in \"echo 'a\"; close it, or give the command as a list of arguments", message
    message = error("runtimes: [system]\nworkloads:\n  - command: \"true\"\n    prepare: \"bin/rails \\\"x\"\n")
    assert_match(/exp\.yml:4: prepare has an unmatched quote/, message)
  end

  def test_an_env_name_with_an_equals_sign_is_refused
    message = error("runtimes:\n  - spec: system\n    env: {\"A=B\": 1}\nworkloads: [builtin:nbody]\n")
    assert_match(/exp\.yml:3: env has the variable name "A=B"; a name is text without '='/, message)
  end

  def test_unknown_key_names_the_line_and_a_suggestion
    message = error("runtimes: [system]\nworkloads: [builtin:nbody]\nbatchs: 3\n")
    assert_match(/exp\.yml:3: unknown key 'batchs' in the top level; did you mean 'batches'\?/, message)
    refute_includes message, "\n"
  end

  def test_unknown_key_in_a_workload
    message = error("runtimes: [system]\nworkloads:\n  - builtin: nbody\n    iteratons: 3\n")
    assert_match(/exp\.yml:4: unknown key 'iteratons' in a script workload; did you mean 'iterations'\?/, message)
  end

  def test_wrong_type_names_the_line_and_the_expected_form
    message = error("runtimes: [system]\nworkloads: [builtin:nbody]\nbatches: five\n")
    assert_match(/exp\.yml:3: batches must be a positive integer, got "five"; write e.g. batches: 5/, message)
    message = error("runtimes: system\nworkloads: [builtin:nbody]\n")
    assert_match(/exp\.yml:1: runtimes must be a list of runtime specs/, message)
  end

  def test_empty_matrix
    message = error("runtimes: [system]\nworkloads:\n  - builtin: nbody\n    params:\n      steps: []\n")
    assert_match(/exp\.yml:5: steps is an empty list, so the matrix has no cells; give at least one value/, message)
  end

  def test_empty_runtime_list
    assert_match(/runtimes is empty/, error("runtimes: []\nworkloads: [builtin:nbody]\n"))
  end

  def test_unknown_builtin_and_parameter_get_suggestions
    assert_match(/unknown built-in workload 'builtin:nbdy': did you mean builtin:nbody\?/,
      error("runtimes: [system]\nworkloads: [builtin:nbdy]\n"))
    assert_match(/stepz is not a parameter of builtin:nbody; did you mean 'steps'\?/,
      error("runtimes: [system]\nworkloads:\n  - builtin: nbody\n    params: {stepz: 1}\n"))
  end

  def test_baseline_must_be_a_label
    assert_match(/baseline 'nope' is not a runtime label; use one of system/,
      error("runtimes: [system]\nbaseline: nope\nworkloads: [builtin:nbody]\n"))
  end

  def test_duplicate_labels_are_rejected
    assert_match(/has the label 'system' twice; give each a label, e.g. a=system and b=system/,
      error("runtimes: [system, system]\nworkloads: [builtin:nbody]\n"))
  end

  def test_a_mistyped_variant_gets_its_line_and_a_suggestion_at_parse_time
    message = error("runtimes:\n  - system\n  - system+yjt\nworkloads: [builtin:nbody]\n")
    assert_equal "#{@path}:3: unknown variant +yjt in runtime 'system+yjt'; did you mean +yjit?", message
    assert_match(/exp\.yml:1: unknown variant \+turbo in runtime 'system\+turbo'; known: \+yjit, \+yjit-mem/,
      error("runtimes: [system+turbo]\nworkloads: [builtin:nbody]\n"))
    assert_match(/exp\.yml:1: runtime 'system\+yjit-mem=big': \+yjit-mem needs a size in MiB/,
      error("runtimes: [system+yjit-mem=big]\nworkloads: [builtin:nbody]\n"))
  end

  def test_bad_runtime_spec_gets_its_line
    assert_match(/exp\.yml:1: bad variant/, error("runtimes: [system+Y!]\nworkloads: [builtin:nbody]\n"))
  end

  def test_yaml_syntax_error_is_one_line
    message = error("runtimes: [system\nworkloads: x\n")
    assert_match(/exp\.yml:\d+: YAML syntax error/, message)
  end

  def test_yaml_aliases_are_refused
    message = error("a: &x [system]\nruntimes: *x\nworkloads: [builtin:nbody]\n")
    assert_match(/plain YAML values only/, message)
  end

  def test_script_and_command_workloads
    dir = tmpdir
    write(dir, "bench.rb", "Rubyrig.bench { 1 }\n")
    path = write(dir, "exp.yml", "runtimes: [system]\nworkloads:\n  - script: bench.rb\n  - command: ruby -e '1 + {n}'\n    params: {n: [1, 2]}\n")
    exp = Rubyrig::Experiment.load(path)
    assert_equal File.join(dir, "bench.rb"), exp.workloads[0].target
    assert_equal ["ruby", "-e", "1 + {n}"], exp.workloads[1].target
    assert_equal "command", exp.workloads[1].kind
  end

  def test_a_missing_script_is_reported
    assert_match(/file nope\.rb does not exist/, error("runtimes: [system]\nworkloads:\n  - script: nope.rb\n"))
  end

  def test_two_kinds_in_one_workload
    assert_match(/names builtin and script|names script and builtin/,
      error("runtimes: [system]\nworkloads:\n  - script: x.rb\n    builtin: nbody\n"))
  end

  def test_missing_file
    e = assert_raises(Rubyrig::ExperimentError) { Rubyrig::Experiment.load("/nonexistent/exp.yml") }
    assert_match(%r{cannot read experiment file /nonexistent/exp.yml}, e.message)
  end

  def test_prepare_is_an_argv_from_a_list_or_a_command_line
    yaml = "runtimes: [system]\nworkloads:\n  - command: [ruby, -v]\n    prepare: bin/rails db:prepare\n  - command: [ruby, -w]\n    prepare: [bin/setup, --fast]\n"
    first, second = load(yaml).workloads
    assert_equal %w[bin/rails db:prepare], first.prepare
    assert_equal %w[bin/setup --fast], second.prepare
    assert_nil load("runtimes: [system]\nworkloads:\n  - command: [ruby, -v]\n").workloads.first.prepare
    assert_match(/exp\.yml:4: prepare must be a command as a list of arguments/, error("runtimes: [system]\nworkloads:\n  - command: [ruby, -v]\n    prepare: []\n"))
  end

  def test_a_builtin_brings_its_own_prepare_step_which_the_entry_may_replace
    assert_equal %w[ruby bin/prepare], load("runtimes: [system]\nworkloads: [builtin:rails-blog]\n").workloads.first.prepare
    given = load("runtimes: [system]\nworkloads:\n  - builtin: rails-blog\n    prepare: [ruby, -e, exit]\n")
    assert_equal %w[ruby -e exit], given.workloads.first.prepare
    assert_nil load("runtimes: [system]\nworkloads: [builtin:rails-hello]\n").workloads.first.prepare
  end
end

# The fuzz test's parts: a seeded generator of command lines and experiment files (valid ones, then
# mutated: keys dropped, renamed and retyped, values swapped for hostile ones, YAML text cut, flipped and
# re-indented, arguments dropped, repeated, swapped and garbled), a sandbox in which each case runs with
# fresh copies of the results directories it names, and the rules every outcome must keep.
#
# Cases never start a long measurement, by construction: every workload that would take long (scripts,
# built-ins, apps, jobs) is given runtimes that no interpreter matches, so the run stops when runtimes
# are resolved; only commands such as `true` run, with the system Ruby, one to three batches; no pool
# holds a batch count between 4 and 10,000, a profiler's name or a resolvable runtime.
require "fileutils"
require "json"
require "psych"

module RubyrigFuzz
  # One generated case: the argv, the experiment files it writes first, and how it was made.
  Case = Struct.new(:number, :argv, :files, :kind, keyword_init: true) do
    def describe
      files_text = files.map { |name, text| "\n    #{name}: #{text.inspect[0, 600]}" }.join
      "case #{number} (#{kind}): #{argv.inspect[0, 600]}#{files_text}"
    end
  end

  FAST_RUNTIMES = ["system", "a=system", "b=system"].freeze
  # Specs that name no interpreter on any machine.
  NO_RUNTIMES = ["9.9.9", "9.9.9+yjit", "x=9.9.9+mn", "/nonexistent/bin/ruby", "jruby-0.0.1", "y=/nonexistent/ruby+jemalloc"].freeze
  FAST_WORKLOADS = [["true"], ["false"], ["/bin/echo", "{word}"], ["/bin/echo", "hi"]].freeze
  SLOW_WORKLOADS = [["builtin:nbody"], ["builtin:rack-hello"], ["builtin:sidekiq-noop"], ["builtin:rails-hello"],
    ["bench.rb", "1", "2"], ["app/config.ru"], ["app"], ["builtin:nbodyy"], ["builtin:"]].freeze
  FIXTURES = %w[done partial damaged notarun].freeze
  MARKER = "FUZZ-PWNED"

  # Strings that must stay data wherever they go. `marker` is a path that a shell would create.
  def self.hostile(marker)
    ["a b'\"; $(touch #{marker}) <script>alert(1)</script> ../x", "line1\nline2", "../../x", "..", "/", "",
      " ", "\t", "%s%n%x", "{word}", "{", "a|b", "`touch #{marker}`", "x\0y", "\e]0;title\a\e[31m", "é✓ 中文",
      "\u202Eevil", "-", "--", "-r", "--batches", "=", "a=b=c", ",", "1,,2", "x" * 5000, "\xFF\xFE".b]
  end

  NUMBERS = ["0", "1", "2", "3", "-1", "1.5", "1e3", "99999999999999999999", "0x10", "NaN", "", "x"].freeze

  # The scalar and structured values a mutation may put anywhere in an experiment file.
  def self.values(marker)
    [nil, true, false, 0, 1, 2, 3, -1, -0.0, 1.5, 2**64, 10**30, Float::INFINITY, -Float::INFINITY, Float::NAN,
      [], {}, [nil], [[]], {"a" => 1}, ["a", "b"], [1, 2], "9.9.9", "0-1-2", "1,2", "keepalive", "client-close",
      "decided", "5%", "-5%", "200%", "1h", "90s", "gvl", "perfetto", "sqlite", "postgres://nobody@127.0.0.1:1/x",
      "unix", "tcp", "warn", "loud", "{word}", "9.9.9+yjit-mem=0"] + hostile(marker)
  end

  FAST_SEEDS = {
    "fast-one.yml" => <<~YAML,
      name: fuzz
      runtimes: [system]
      workloads:
        - command: "true"
      batches: 1
      seed: 1
    YAML
    "fast-two.yml" => <<~YAML,
      description: two labelled runtimes, a parameter
      runtimes:
        - spec: system
          label: base
          env: {FUZZ_VALUE: "1", OTHER: 2}
        - spec: system
          label: other
          flags: [--disable-gems]
      baseline: base
      workloads:
        - name: echo
          command: [/bin/echo, "{word}"]
          params: {word: [a]}
          timeout_s: 30
      batches: 1
      seed: 7
      equivalence: 5%
      gvl: false
    YAML
    "fast-false.yml" => <<~YAML,
      runtimes: [system]
      workload: {command: ["false"], chdir: "."}
      batches: 2
      timeout_s: 10
      cpus: "0"
      equivalence: {default: 2%, wall_s: 10%}
    YAML
    "fast-until.yml" => <<~YAML
      runtimes: [a=system, b=system]
      workloads: [{command: "true"}]
      batches: 3
      until: decided
      max_batches: 3
      max_time: 10s
    YAML
  }.freeze

  SLOW_SEEDS = {
    "slow-script.yml" => <<~YAML,
      runtimes: ["9.9.9+yjit", "x=9.9.9"]
      workloads:
        - builtin: nbody
          params: {steps: [1000, 2000]}
          iterations: 3
          warmup: 1
          sweeps: [steps]
        - script: bench.rb
          args: ["{n}", 5]
          params: {n: [1, 2]}
      batches: 3
      trace: gvl
      profile: stackprof
    YAML
    "slow-http.yml" => <<~YAML,
      runtimes: [{spec: "9.9.9", label: web, env: {RAILS_MAX_THREADS: 5}}]
      workloads:
        - builtin: rack-hello
          params: {threads: [1, 2], processes: 1, connection: [keepalive, close], connections: 4}
          duration_s: 2
          warmup_s: 1
          load_threads: 2
          path: /
          max_error_rate: 0.01
          request_timeout_s: 2
          boot_timeout_s: 30
          server_cpus: "0"
          load_cpus: "1"
        - app: app
          prepare: bin/rails db:prepare
          params: {connection: client-close}
    YAML
    "slow-jobs.yml" => <<~YAML
      runtimes: [/nonexistent/bin/ruby]
      workloads:
        - builtin: sidekiq-noop
          params: {jobs: 100, concurrency: [1, 5], processes: 1}
          warmup_jobs: 10
          log_level: warn
          redis: unix
          stubs: false
          database: sqlite
        - jobs: jobs.rb
          gemfile: Gemfile
          params: {jobs: 10}
      until: decided
      max_batches: 5
    YAML
  }.freeze

  # Makes the cases of one seed, in the same order every time.
  class Generator
    def initialize(seed, marker:)
      @rng = Random.new(seed)
      @marker = marker
      @values = RubyrigFuzz.values(marker)
      @hostile = RubyrigFuzz.hostile(marker)
    end

    def case(number)
      kind = pick(%w[run run run run compare compare compare resume report report merge deploy misc])
      files = {}
      argv = send(:"#{kind}_argv", files)
      argv = mutate_argv(argv) if @rng.rand < 0.5
      argv = ["--debug", *argv] if @rng.rand < 0.02
      Case.new(number: number, argv: argv, files: files, kind: kind)
    end

    private

    def pick(list) = list[@rng.rand(list.size)]

    def chance(p) = @rng.rand < p

    def run_argv(files)
      slow = chance(0.9)
      name, text = pick((slow ? SLOW_SEEDS : FAST_SEEDS).to_a)
      text = mutate_yaml(text, slow) if chance(0.97)
      file = chance(0.05) ? pick(@hostile.reject { |h| h.include?("\0") || h.empty? || h.size > 200 || !h.valid_encoding? }) + ".yml" : "exp-#{name}"
      files[file] = text
      options = []
      options += ["--results", pick(results_dirs)] if chance(0.6)
      options += ["-b", pick(%w[1 2 3 0 -1 99999999999999999999 x])] if chance(0.15)
      options += ["--seed", pick(NUMBERS)] if chance(0.15)
      options += ["--cpus", pick(["0", "0-1", "0-1-2", "9-0", "", "a"])] if chance(0.08)
      options += ["--shard", pick(["1/2", "2/2", "0/2", "3/2", "auto", "auto/2", "1/0", "x"])] if chance(0.08)
      options += ["--host-id", pick(["ci-1", *@hostile])] if chance(0.05)
      options += ["--trace", pick(["perfetto", "", "GVL"])] if chance(0.05)
      options += ["--max-batches", pick(%w[3 0 -1 99999999999999999999])] if chance(0.05)
      options += ["--until", pick(["decided", "never", ""])] if chance(0.05)
      options += export_options
      chance(0.7) ? ["run", file, *options] : ["run", *[file, *options].shuffle(random: @rng)]
    end

    def compare_argv(_files)
      slow = chance(0.9)
      runtimes = Array.new(1 + @rng.rand(2)) { pick(slow ? NO_RUNTIMES : FAST_RUNTIMES) }
      workload = pick(slow ? SLOW_WORKLOADS : FAST_WORKLOADS)
      options = runtimes.flat_map { |r| [pick(["-r", "--runtime"]), r] }
      options += ["-b", pick(%w[1 2 3 0 -1 99999999999999999999 many])] if chance(0.5)
      options += ["--param", pick(["word=a", "word=a,b", "word=", "=1", "word", "steps=10", "word=#{pick(@hostile)}", "threads=1,2"])] if chance(0.3)
      options += ["--seed", pick(NUMBERS)] if chance(0.2)
      options += ["--baseline", pick(["a", "system", "nope", *@hostile.first(3)])] if chance(0.1)
      options += [pick(%w[--iterations --warmup --duration-s --warmup-s --timeout]), pick(NUMBERS)] if chance(0.2)
      options += ["--name", pick(["fuzz", *@hostile])] if chance(0.2)
      options += ["--results", pick(results_dirs)] if chance(0.7)
      options += ["--equivalence", pick(["1%", "0%", "-1%", "x", "100%", ""])] if chance(0.1)
      options += ["--fail-if", pick(["slower", "slower:5%", "inconclusive", "faster", "slower:x"])] if chance(0.1)
      options += ["--no-gvl"] if chance(0.1)
      options += ["--profile", pick(["stackprf", "", "none"])] if chance(0.05)
      options += [pick(%w[--server-cpus --load-cpus --cpus]), pick(["0", "0-1-2", "", "x"])] if chance(0.1)
      options += export_options
      ["compare", *options, "--", *workload]
    end

    def resume_argv(_files)
      ["run", "--resume", pick(FIXTURES + ["nowhere", "exp-fast-one.yml", "."]), *(chance(0.2) ? ["--server-cpus", "0"] : []), *export_options]
    end

    def report_argv(_files)
      ["report", *Array.new(chance(0.9) ? 1 : @rng.rand(3)) { pick(FIXTURES + ["nowhere", ".", "", @hostile.first]) }, *export_options]
    end

    def merge_argv(_files)
      ["merge", *Array.new(@rng.rand(3)) { pick(FIXTURES + ["nowhere", "."]) }, *(chance(0.7) ? ["--results", pick(results_dirs)] : []),
        *(chance(0.2) ? ["--require-all"] : [])]
    end

    def deploy_argv(files)
      name, text = pick(FAST_SEEDS.merge(SLOW_SEEDS).to_a)
      text = mutate_yaml(text, true) if chance(0.5)
      files["exp-#{name}"] = text
      ["deploy", pick(["kubernetes", "github-actions", "nomad", ""]), "exp-#{name}", *(chance(0.5) ? ["--shards", pick(NUMBERS)] : []),
        *(chance(0.3) ? [pick(["--image", "--namespace", "--name"]), pick(["x", *@hostile])] : [])]
    end

    def misc_argv(_files)
      pick([[], ["--help"], ["-h"], ["help"], ["--version"], ["-v"], ["runtimes"], ["workloads"], ["compair"],
        ["run"], ["run", "--help"], ["compare", "--help"], ["report"], ["merge"], ["deploy"], ["build", "--help"],
        ["install", "--help"], ["demo", "--help"], ["doctor", "--help"], ["workloads", "extra"], [pick(@hostile)]])
    end

    def results_dirs = ["r", "res dir", "../r-up", "r/../r2", "done", "exp-fast-one.yml", "/proc/1/nope", "", "a/b/c", *@hostile.first(3)]

    def export_options
      return [] unless chance(0.15)
      [pick(%w[--export-json --export-csv --export-markdown --export-html]),
        pick(["out.json", "no/such/dir/x.html", "../up.md", ".", "/proc/1/x", "", "done", "out file <script>.html"])]
    end

    # A few argument-level edits: drop, repeat, swap, insert or garble a token.
    def mutate_argv(argv)
      argv = argv.dup
      (1 + @rng.rand(3)).times do
        i = @rng.rand([argv.size, 1].max)
        case @rng.rand(6)
        when 0 then argv.delete_at(i) if argv.size > 1
        when 1 then argv.insert(i, argv[i]) if argv[i]
        when 2 then argv[i], argv[i + 1] = argv[i + 1], argv[i] if argv[i + 1]
        when 3 then argv.insert(i, pick(["--batches", "-r", "--results", "--", "--resume", "-b", "--param", "--help", "--debug", *@hostile, *NUMBERS]))
        when 4 then argv[i] = pick(@hostile + NUMBERS) if argv[i]
        when 5 then argv[i] = garble(argv[i]) if argv[i]
        end
      end
      # A command a mutation turned into one that builds, installs or demonstrates is not run: those
      # take many minutes by design, and their own arguments are fuzzed with --help only.
      command = argv.find { |a| a != "--debug" }
      argv = [command, "--help"] if %w[build install demo doctor].include?(command)
      argv
    end

    def garble(text)
      text = text.dup.force_encoding(Encoding::BINARY)
      chars = ["\0", "\n", "=", "-", ",", "/", "+", ".", "{", "}", "\xFF".b, "é".b, "'", "\"", " "]
      i = text.empty? ? 0 : @rng.rand(text.size)
      case @rng.rand(3)
      when 0 then text.insert(i, pick(chars))
      when 1 then text[i] = pick(chars) unless text.empty?
      when 2 then text[i] = "" unless text.empty?
      end
      text.force_encoding(Encoding::UTF_8)
    end

    # Structure edits on the parsed file (most of the time), or edits of its text.
    def mutate_yaml(text, slow)
      return mutate_text(text) if chance(0.3)
      data = Psych.safe_load(text)
      (1 + @rng.rand(3)).times { data = mutate_node(data, slow) }
      dumped = Psych.dump(data)
      chance(0.1) ? mutate_text(dumped) : dumped
    rescue ArgumentError # a garbled key that is not UTF-8 cannot be dumped: edit the text instead
      mutate_text(text)
    end

    def mutate_node(node, slow)
      paths = walk(node)
      path = pick(paths)
      parent = path.empty? ? nil : dig(node, path[0..-2])
      key = path.last
      value = path.empty? ? node : parent[key]
      case @rng.rand(9)
      when 0 then parent.is_a?(Hash) ? parent.delete(key) : (parent&.delete_at(key) if parent.is_a?(Array) && parent.size > 1)
      when 1 then parent[typo(key)] = parent.delete(key) if parent.is_a?(Hash)
      when 2, 3
        replacement = pick(@values)
        replacement = "system" if !slow && key == "spec" && chance(0.3)
        path.empty? ? (return replacement) : (parent[key] = deep_copy(replacement))
      when 4 then path.empty? ? (return [node]) : (parent[key] = [value])
      when 5 then parent[key] = value.first if value.is_a?(Array) && !value.empty? && parent
      when 6 then value[pick(KEYS)] = deep_copy(pick(@values)) if value.is_a?(Hash)
      when 7 then value << deep_copy(value.last) if value.is_a?(Array) && !value.empty? && value.size < 4
      when 8 then parent[key] = {pick(KEYS) => value} if parent
      end
      node
    end

    # Every key of every level of the experiment format, so that renames and additions land on names
    # rubyrig knows as often as on typos.
    KEYS = %w[name description runtimes baseline workloads workload batches seed timeout_s cpus gvl trace profile
      equivalence until max_batches max_time spec label env flags params iterations warmup gemfile sweeps builtin
      prepare script command app jobs args chdir duration_s warmup_s load_threads connections path port server_cpus
      load_cpus boot_timeout_s wrk httperf max_error_rate request_timeout_s database stubs log_level redis warmup_jobs].freeze

    def typo(key)
      return pick(KEYS) if chance(0.5) || !key.is_a?(String) || key.empty?
      garble(key)
    end

    def walk(node, path = [], acc = [])
      acc << path
      case node
      when Hash then node.each_key { |k| walk(node[k], path + [k], acc) }
      when Array then node.each_index { |i| walk(node[i], path + [i], acc) }
      end
      acc
    end

    def dig(node, path) = path.reduce(node) { |n, k| n[k] }

    def deep_copy(value) = Marshal.load(Marshal.dump(value))

    # Text edits: a byte flipped, a line dropped, repeated or re-indented, a cut, YAML's own syntax.
    def mutate_text(text)
      lines = text.lines
      case @rng.rand(10)
      when 0 then text[0, @rng.rand(text.size + 1)]
      when 1 then lines.tap { |l| l.delete_at(@rng.rand(l.size)) }.join
      when 2 then lines.tap { |l|
        i = @rng.rand(l.size)
        l.insert(i, l[i])
      }.join
      when 3 then lines.tap { |l|
        i = @rng.rand(l.size)
        l[i] = (chance(0.5) ? "  " : "\t") + l[i]
      }.join
      when 4 then lines.tap { |l|
        i = @rng.rand(l.size)
        l[i] = l[i].sub(/\A\s+/, "")
      }.join
      when 5 then garble(text)
      when 6 then text + pick(["anchor: &a [1]\nalias: *a\n", "obj: !ruby/object:Object {}\n", "when: 2024-01-01\n",
        "sym: :sym\n", "bin: !!binary aGk=\n", "deep: #{"[" * 3000}#{"]" * 3000}\n", "? [complex, key]\n: v\n",
        "%YAML 1.1\n---\n", "---\nsecond: document\n", "batches: 2\n", "<<: {merge: key}\n"])
      when 7 then text.sub(": ", pick([": !!str ", ": &x ", ": |\n  ", ": >-\n  ", ": \"\\x00\" # "]))
      when 8 then text.tr('"', "'")
      else "#{pick(["", "---\n", "# comment\n", "\uFEFF"])}#{text}".b.force_encoding(Encoding::UTF_8)
      end
    end
  end

  # The directories the cases run in: cwd is four levels inside root/sandbox, so that "../../x" stays
  # in it; fixture runs are copied afresh for each case that names them, and everything a case made is
  # removed after it.
  class Sandbox
    attr_reader :root, :cwd, :marker

    def initialize(root)
      @root = root
      @top = File.join(root, "sandbox")
      @cwd = File.join(@top, "a", "b", "c", "d")
      @templates = File.join(root, "templates")
      @marker = File.join(root, MARKER)
      FileUtils.mkdir_p([@cwd, @templates])
      File.write(File.join(@cwd, "bench.rb"), "exit 0\n")
      FileUtils.mkdir_p(File.join(@cwd, "app"))
      File.write(File.join(@cwd, "app", "config.ru"), "run ->(_) { [200, {}, [\"ok\"]] }\n")
      File.write(File.join(@cwd, "jobs.rb"), "\n")
      File.write(File.join(@cwd, "Gemfile"), "source \"https://rubygems.org\"\n")
      @keep = Dir.children(@cwd).sort
    end

    def template(name) = File.join(@templates, name)

    # Puts fresh copies of the fixtures the case names into cwd, and the case's files.
    def prepare(kase)
      FIXTURES.each do |name|
        next unless kase.argv.any? { |a| a.include?(name) }
        FileUtils.cp_r(template(name), File.join(@cwd, name))
      end
      kase.files.each do |name, text|
        path = File.expand_path(name, @cwd)
        FileUtils.mkdir_p(File.dirname(path))
        File.binwrite(path, text)
      end
    end

    # Every results directory the case left: anything holding run.json.
    def runs_left = Dir.glob(File.join(@top, "**", "run.json"), File::FNM_DOTMATCH).map { |f| File.dirname(f) }

    # Directories with an artifacts folder but no run.json: a results directory left half made.
    def partial_dirs
      Dir.glob(File.join(@top, "**", "artifacts"), File::FNM_DOTMATCH).map { |d| File.dirname(d) }
        .reject { |d| File.file?(File.join(d, "run.json")) }
    end

    # Removes everything a case made, leaving the chain of folders to cwd and the files kept in it.
    def clean
      dir = @cwd
      keep = @keep
      while dir.start_with?(@top)
        (Dir.children(dir) - keep).each { |c| FileUtils.rm_rf(File.join(dir, c)) }
        keep = [File.basename(dir)]
        dir = File.dirname(dir)
      end
    end
  end

  # The rules of an outcome. Each returns a list of problems (empty when the case is fine).
  module Rules
    # What rubyrig prints on stderr besides its one error line: progress, notes and warnings.
    PROGRESS = /\A(\[\d+\/\d+\] |Done: |Resuming: |Warning: |Installing |Preparing |Look at |Stopping: |rubyrig: (?!error:))/
    BACKTRACE = /(\.rb:\d+:in [`'])|(^\s+from \/)|(^\S+\.rb:\d+: )/

    module_function

    def outcome(status, out, err, debug: false)
      problems = []
      return ["exit status #{status.inspect}, not 0, 1, 2 or 3"] unless [0, 1, 2, 3].include?(status)
      problems << "a backtrace on stderr" if !debug && err.match?(BACKTRACE)
      problems << "a backtrace on stdout" if out.match?(BACKTRACE)
      lines = err.lines.map(&:chomp)
      errors = lines.each_index.select { |i| lines[i].start_with?("rubyrig: error: ") }
      return problems if debug
      problems << "#{errors.size} error lines" if errors.size > 1
      problems << "the error line is not the last line of stderr" if errors.size == 1 && errors.first != lines.size - 1
      others = lines.each_index.reject { |i| errors.include?(i) || lines[i].empty? || lines[i].match?(PROGRESS) }
      problems << "stderr line #{others.first + 1} is neither progress nor the error: #{lines[others.first].inspect[0, 200]}" unless others.empty?
      case status
      when 2 then problems << "exit 2 without the error line or the usage" if errors.empty? && out.empty?
      when 1 then problems << "exit 1 without an error line or a failed batch" if errors.empty? && !err.match?(/^rubyrig: \d+ batch(es)? failed/)
      when 0, 3 then problems << "exit #{status} with an error line" unless errors.empty?
      end
      problems
    end

    # A results directory a case left must be a run rubyrig can read, report and resume.
    def run_dir(dir)
      store = Rubyrig::Results::Store.open(dir)
      meta = store.meta
      reading = store.read_trials
      Rubyrig::Analysis.new.analyze(meta: meta, trials: reading.trials, skipped: reading.skipped)
      plan = Rubyrig::Results::RunMeta.new(meta).plan
      ids = plan.batches.map(&:id)
      stray = reading.trials.map(&:batch_id) - ids
      problems = []
      problems << "#{dir}: trials of batches the plan does not have: #{stray.first(3)}" unless stray.empty?
      problems << "#{dir}: #{reading.skipped.first}" if reading.skipped.any? && !File.basename(dir).start_with?("damaged")
      problems << "#{dir}: run.json.tmp left behind" if File.exist?(File.join(dir, "run.json.tmp"))
      problems
    rescue => e # whatever keeps the directory from being read is the finding
      ["#{dir}: not a readable, resumable run: #{e.class}: #{e.message[0, 200]}"]
    end
  end
end

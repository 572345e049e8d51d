require "test_helper"
require "open3"
require "psych"
require "cgi"

# Runtime labels, workload names, an app's path, parameter values and env values full of spaces,
# quotes, `;`, `$(...)`, backticks, newlines, `../`, HTML and Markdown reach the processes as data (argv
# and environment, never a shell), make no file outside the run and no file name from the data in it,
# and come out as text in every report: the terminal, report.html (no tag it did not write), report.md
# (rendered by a CommonMark renderer: no tag, every table row with its cells), summary.json and CSV.
class HostileInputTest < Minitest::Test
  include SlowTest

  RENDERER = File.join(RubyrigTest::ROOT, "test", "support", "render-markdown.js")
  NODE_MODULES = File.join(RubyrigTest::ROOT, "node_modules")

  def hostile(tag) = "#{tag} a b'\"; $(touch pwned-#{tag}) `touch pwned-bq-#{tag}` <script>alert(1)</script> <img src=x onerror=alert(2)> ../../#{tag} | *em* [l](x) & &amp;"

  def test_hostile_values_are_data_everywhere
    needs(File.file?(File.join(NODE_MODULES, "markdown-it", "package.json")), "markdown-it is not installed; run bin/setup (npm install)")
    root = tmpdir
    label = hostile("label")
    name = hostile("workload")
    values = [hostile("param"), "line1\nline2 | `x` <b>bold</b>", "../../etc/passwd", "%0A=%25"]
    env_value = hostile("env") + "\nsecond line"
    app_dir = File.join(root, "app #{hostile("app").delete("/")}")
    FileUtils.mkdir_p(app_dir)
    FileUtils.cp(File.join(RubyrigTest::ROOT, "lib", "rubyrig", "workloads", "rack-hello", "config.ru"), app_dir)
    write(root, "show.rb", "require \"json\"\nputs JSON.generate([Rubyrig.param(\"p\", \"\"), ENV[\"HOSTILE\"], ARGV])\n")
    data = {
      "name" => hostile("run"),
      "runtimes" => [{"spec" => "system", "label" => label, "env" => {"HOSTILE" => env_value}}],
      "workloads" => [
        {"name" => name, "command" => ["/bin/echo", "{p}"], "params" => {"p" => values}, "prepare" => ["/bin/echo", "prep"]},
        {"name" => "#{name} script", "script" => "show.rb", "args" => ["{p}", "$(touch pwned-arg)"], "params" => {"p" => values.first(2)}},
        {"name" => "#{name} app", "app" => app_dir, "duration_s" => 1, "warmup_s" => 0, "params" => {"connections" => 1}}
      ],
      "batches" => 1, "seed" => 3
    }
    exp = write(root, "exp.yml", Psych.dump(data))
    pid = Process.spawn(ENV.to_h.merge("RUBYRIG_CACHE_DIR" => cache_dir, "NO_COLOR" => "1"), RbConfig.ruby, RubyrigTest::EXE, "run", exp,
      chdir: root, out: File.join(root, "rubyrig.out"), err: File.join(root, "rubyrig.err"))
    Process.wait(pid)
    out = Rubyrig::Processes::TextFile.read(File.join(root, "rubyrig.out"))
    err = Rubyrig::Processes::TextFile.read(File.join(root, "rubyrig.err"))
    assert $?.success?, err

    assert_empty Dir.glob(File.join(root, "**", "pwned*"), File::FNM_DOTMATCH), "no value ran in a shell"
    assert_empty Dir.glob("/tmp/pwned*") + Dir.glob(File.join(Dir.home, "pwned*"))
    runs = Dir.glob(File.join(root, "rubyrig-results", "*"))
    assert_equal 1, runs.size
    run = runs.first
    assert_match(/\A\d{8}-\d{6}-[A-Za-z0-9_.-]+\z/, File.basename(run), "the default results folder's name is made safe")
    assert_equal ["app #{hostile("app").delete("/")}", "exp.yml", "rubyrig-results", "rubyrig.err", "rubyrig.out", "show.rb"], Dir.children(root).sort
    assert(Dir.children(File.join(run, "artifacts")).all? { |b| b.match?(Rubyrig::Experiment::Plan::ID_PATTERN) })
    assert(Dir.children(File.join(run, "prepare")).all? { |f| f.match?(/\A[A-Za-z0-9_.-]+\.log\z/) })

    trials = trial_lines(run)
    assert_equal 7, trials.size
    assert(trials.all? { |t| t["status"] == "ok" }, trials.map { |t| t["reason"] }.compact.join("; "))
    echoed = trials.select { |t| t["workload"] == name }.map do |t|
      Rubyrig::Processes::TextFile.read(File.join(run, "artifacts", t["batch_id"], "stdout.log")).delete_suffix("\n")
    end
    assert_equal values.sort, echoed.sort, "each value reached the command's argv as it was given"
    shown = trials.select { |t| t["workload"] == "#{name} script" }.map do |t|
      JSON.parse(Rubyrig::Processes::TextFile.read(File.join(run, "artifacts", t["batch_id"], "stdout.log")))
    end
    assert_equal values.first(2).sort, shown.map(&:first).sort, "parameters reach the script as given"
    assert(shown.all? { |_, env, argv| env == env_value && argv[1] == "$(touch pwned-arg)" }, shown.inspect)

    # The terminal: data can neither break a line nor send escapes.
    refute_match(/[\x00-\x08\x0b-\x1f\x7f]/, out)
    assert_includes out, "line1\\nline2"

    html = Rubyrig::Processes::TextFile.read(File.join(run, "report.html"))
    refute_match(/<(script|img|b|iframe)[\s>]/i, html, "no tag from the data")
    refute_match(/onerror=alert/, html.gsub("onerror=alert(2)&gt;", ""), "no attribute from the data")
    assert_includes html, CGI.escapeHTML(label)
    assert_includes html, CGI.escapeHTML(name)

    rendered, status = Open3.capture2({"NODE_PATH" => NODE_MODULES}, "node", RENDERER, File.join(run, "report.md"))
    rendered.force_encoding(Encoding::UTF_8) # node writes UTF-8; the locale may say US-ASCII
    assert status.success?
    refute_match(/<(script|img|b|iframe)[\s>]/i, rendered, "no tag from the data in the rendered Markdown")
    assert_includes rendered, CGI.escapeHTML("<script>alert(1)</script>")
    tables = rendered.scan(%r{<table>.*?</table>}m)
    refute_empty tables
    tables.each do |table|
      widths = table.scan(%r{<tr>.*?</tr>}m).map { |row| row.scan(/<t[hd][ >]/).size }
      assert_equal [widths.first], widths.uniq, "every row of a table has its header's cells: #{table[0, 300]}"
    end
    assert_includes rendered, "<code>#{CGI.escapeHTML(label).gsub("&#39;", "'")}</code>"

    summary = JSON.parse(Rubyrig::Processes::TextFile.read(File.join(run, "summary.json")))
    assert_equal label, summary.dig("run", "baseline")
    assert_equal hostile("run"), summary.dig("run", "name")
    csv = Rubyrig::Reporters::Csv.new(Rubyrig::Analysis.new.analyze(meta: Rubyrig::Results::Store.open(run).meta, trials: Rubyrig::Results::Store.open(run).trials)).render
    runtimes = CSV.parse(csv, headers: true).map { |row| row["runtime"] }.compact.uniq
    assert_equal [label], runtimes, "labels round-trip through CSV"
  end
end

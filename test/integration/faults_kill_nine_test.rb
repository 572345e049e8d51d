# kill -9 of rubyrig leaves no process of the run, in every kind of workload and while it builds an
# interpreter or installs a gem set, even processes that left their group and session: a command's
# backgrounded children, a script's detached child, Puma's workers and wrk, redis-server and the
# Sidekiq workers, configure's children and a gem extension's build. Each case scans /proc.
require "test_helper"
require_relative "faults_support"

class FaultsKillNineTest < Minitest::Test
  include SlowTest
  include FaultsSupport

  def named(processes, *argv) = processes.select { |p| p.argv == argv }

  def test_a_command_workloads_background_children_die_with_rubyrig
    dir = tmpdir
    # As a new user would try it, plus a child in a session of its own (out of every process group).
    pid = start_rubyrig("compare", "-r", "system", "--results", File.join(dir, "run"),
      "--", "bash", "-c", "sleep 301 & setsid sleep 303 & sleep 302", dir: dir)
    found, = kill_nine_leaves_nothing(pid, dir: dir) do |tree|
      sleeps = %w[301 302 303].flat_map { |s| named(tree, "sleep", s) }
      sleeps if sleeps.size == 3
    end
    assert_equal 3, found.size
  end

  def test_a_scripts_detached_children_die_with_rubyrig
    dir = tmpdir
    script = write(dir, "detaches.rb", <<~RUBY)
      Process.detach(spawn("sleep", "311", pgroup: true))
      Process.detach(spawn("setsid", "sleep", "312"))
      sleep 313
    RUBY
    pid = start_rubyrig("compare", "-r", "system", "--results", File.join(dir, "run"), "--", script, dir: dir)
    kill_nine_leaves_nothing(pid, dir: dir) do |tree|
      named(tree, "sleep", "311").any? && named(tree, "sleep", "312").any?
    end
  end

  def test_puma_workers_and_wrk_die_with_rubyrig
    dir = tmpdir
    exp = write(dir, "http.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - builtin: rack-hello
          params: {processes: 2}
          duration_s: 60
          warmup_s: 0
      batches: 1
    YAML
    pid = start_rubyrig("run", exp, "--results", File.join(dir, "run"), dir: dir)
    _, before = kill_nine_leaves_nothing(pid, dir: dir) do |tree|
      pumas = tree.select { |p| p.argv.first.to_s.start_with?("puma") }
      pumas.size >= 3 && tree.any? { |p| p.argv.first.to_s.end_with?("wrk") }
    end
    assert_operator before.count { |p| p.argv.first.to_s.start_with?("puma") }, :>=, 3, "a master and two workers"
  end

  def test_redis_and_sidekiq_workers_die_with_rubyrig
    dir = tmpdir
    exp = write(dir, "jobs.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - builtin: sidekiq-noop
          params: {jobs: 100000, concurrency: 1, processes: 2}
      batches: 2
    YAML
    pid = start_rubyrig("run", exp, "--results", File.join(dir, "run"), dir: dir)
    kill_nine_leaves_nothing(pid, dir: dir) do |tree|
      tree.count { |p| p.argv.first.to_s.start_with?("sidekiq") } >= 2 &&
        tree.any? { |p| p.argv.first.to_s.include?("redis-server") }
    end
  end

  # A source tarball whose configure leaves children and then hangs: cheap, and what a build's
  # configure and make do (many children, some in the background).
  def test_a_builds_configure_and_its_children_die_with_rubyrig
    dir = tmpdir
    name = "rubyrig-test-kill-nine-#{Process.pid}"
    src = File.join(dir, "ruby-3.3.8")
    write(src, "configure", "#!/bin/sh\nsleep 321 &\nsetsid sleep 322 &\nexec sleep 323\n")
    File.chmod(0o755, File.join(src, "configure"))
    tarball = File.join(dir, "ruby-3.3.8.tar.gz")
    assert system("tar", "-czf", tarball, "-C", dir, "ruby-3.3.8")
    pid = start_rubyrig("build", "3.3.8", "--name", name, "--source", tarball, dir: dir)
    kill_nine_leaves_nothing(pid, dir: dir) do |tree|
      %w[321 322 323].all? { |s| named(tree, "sleep", s).any? }
    end
  ensure
    FileUtils.rm_rf(File.join(cache_dir, "builds", name)) if name
    FileUtils.rm_f(File.join(cache_dir, "builds", "#{name}.lock")) if name
  end

  # A gem whose native extension takes forever to configure, from a local git repository (bundler
  # builds a git gem's extension at install; a path gem's it does not).
  def test_a_gem_set_installs_extension_build_dies_with_rubyrig
    dir = tmpdir
    gem_dir = File.join(dir, "hang")
    write(gem_dir, "hang.gemspec", <<~RUBY)
      Gem::Specification.new do |s|
        s.name = "hang"
        s.version = "0.1.0"
        s.summary = "an extension whose build never ends"
        s.authors = ["rubyrig tests"]
        s.files = ["ext/hang/extconf.rb"]
        s.extensions = ["ext/hang/extconf.rb"]
      end
    RUBY
    write(gem_dir, "ext/hang/extconf.rb", <<~RUBY)
      Process.detach(spawn("setsid", "sleep", "331"))
      sleep 332
    RUBY
    git = ["git", "-C", gem_dir, "-c", "user.name=rubyrig", "-c", "user.email=tests@rubyrig.invalid"]
    assert system(*git, "init", "-q") && system(*git, "add", "-A") && system(*git, "commit", "-q", "-m", "hang")
    gemfile = write(dir, "Gemfile", "gem \"hang\", git: #{gem_dir.dump}\n")
    write(dir, "bench.rb", "1\n")
    exp = write(dir, "exp.yml", "runtimes: [system]\nworkloads:\n  - script: bench.rb\n    gemfile: Gemfile\nbatches: 1\n")
    pid = start_rubyrig("run", exp, "--results", File.join(dir, "run"), dir: dir)
    kill_nine_leaves_nothing(pid, dir: dir) do |tree|
      named(tree, "sleep", "331").any? && tree.any? { |p| p.argv.last.to_s.end_with?("extconf.rb") }
    end
  ensure
    Dir.glob(File.join(cache_dir, "bundles", "*", "*", "Gemfile")).each do |file|
      FileUtils.rm_rf(File.dirname(file)) if gemfile && Rubyrig::Processes::TextFile.read(file).include?(gemfile)
    end
  end
end

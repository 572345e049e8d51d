# Tests BootLog.cause on real Puma and Ruby boot-failure logs (test/fixtures/boot-logs/): each names
# its cause, never a backtrace's tail.
require "test_helper"

class BootLogTest < Minitest::Test
  LOGS = File.join(RubyrigTest::ROOT, "test", "fixtures", "boot-logs")

  def cause(name)
    out, err = %w[stdout stderr].map { |s| Rubyrig::Processes::TextFile.read(File.join(LOGS, "#{name}.#{s}.log")) }
    Rubyrig::Services::BootLog.cause(out, err)
  end

  def test_an_app_without_puma_in_its_bundle_says_so_and_what_to_add
    line = cause("no-puma")
    assert_includes line, "puma is not currently included in the bundle"
    assert_includes line, "(Gem::Exception)"
    assert_includes line, %(add gem "puma")
  end

  def test_a_gem_missing_from_the_gem_set
    assert_equal "Could not find rack-3.0.0 in any of the sources (Bundler::GemNotFound) at definition.rb:486", cause("gem-not-found")
  end

  def test_a_load_error_is_pumas_own_line
    assert_equal "Unable to load application: LoadError: cannot load such file -- sinatra/base", cause("load-error")
  end

  def test_an_address_in_use_is_the_exception_not_the_last_backtrace_line
    assert_equal %(Address already in use - bind(2) for "127.0.0.1" port 46131 (Errno::EADDRINUSE) at binder.rb:344), cause("address-in-use")
  end

  def test_an_exception_at_boot_in_single_and_cluster_mode_is_the_apps_message
    want = "Unable to load application: ArgumentError: DATABASE_URL is not set: give the app a database"
    assert_equal want, cause("raises-single")
    assert_equal want, cause("raises-cluster"), "cluster mode prefixes Puma's line with [pid]"
  end

  def test_without_pumas_line_the_uncaught_exception_names_message_class_and_place
    err = Rubyrig::Processes::TextFile.read(File.join(LOGS, "raises-cluster.stderr.log"))
    assert_equal "DATABASE_URL is not set: give the app a database (ArgumentError) at config.ru:2", Rubyrig::Services::BootLog.cause("", err)
  end

  def test_ruby_3_4_quotes_and_a_message_that_goes_on_below
    err = "app.rb:3:in 'Object#boot': first line of the message\nsecond line (RuntimeError)\n\tfrom app.rb:9:in '<main>'\n"
    assert_equal "first line of the message at app.rb:3", Rubyrig::Services::BootLog.cause("", err)
  end

  def test_error_like_lines_skip_backtraces_and_otherwise_the_last_plain_line_counts
    assert_equal "connection refused by db", Rubyrig::Services::BootLog.cause("booting\n", "\tfrom x.rb:1:in `y' Error\nconnection refused by db\n")
    assert_equal "still booting", Rubyrig::Services::BootLog.cause("starting\nstill booting\n", "\tfrom x.rb:1:in `y'\n")
    assert_equal "no output", Rubyrig::Services::BootLog.cause("", nil)
  end

  def test_pumas_warnings_are_not_the_cause
    assert_equal "Unable to start worker", Rubyrig::Services::BootLog.cause("[1] ! WARNING: something\n[1] ! Unable to start worker\n", "")
  end

  def test_the_cause_is_one_bounded_line
    assert_operator Rubyrig::Services::BootLog.cause("! #{"x" * 1000}\n", "").size, :<=, Rubyrig::Services::BootLog::MAX_CHARS
  end
end

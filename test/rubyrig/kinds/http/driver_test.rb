# Tests the http driver's pure decisions: when the load generator counts as saturated, how an unclean
# Puma stop is reported, and that a resumed run keeps the CPU split of its original command line.
require "test_helper"

class HttpDriverTest < Minitest::Test
  def test_no_warning_while_the_generator_has_headroom
    assert_nil Rubyrig::Kinds::Http::Driver.saturation_warning(0.3, 1.0)
    assert_nil Rubyrig::Kinds::Http::Driver.saturation_warning(nil, 1.0)
  end

  def test_warns_when_the_generator_and_not_the_server_is_saturated
    warning = Rubyrig::Kinds::Http::Driver.saturation_warning(0.97, 0.55)
    assert_equal "the load generator, not the server, is saturated (wrk used 97% of its CPUs, the server 55% of its): " \
      "the throughput measures wrk; give it more load_threads or --load-cpus", warning
  end

  def test_an_unclean_stop_names_rubys_deadlock_report_when_pumas_log_has_one
    log = File.join(tmpdir, "server-stderr.log")
    File.write(log, "puma/server.rb:660:in `join': No live threads left. Deadlock? (fatal)\n")
    assert_equal "Puma did not exit cleanly after TERM (exited with status 1; Ruby reported \"No live threads left. " \
      "Deadlock?\" in Puma's shutdown); the measured run had finished, so its numbers stand; see #{log}",
      Rubyrig::Kinds::Http::Driver.unclean_stop_warning("exited with status 1", log)
    File.write(log, "")
    assert_equal "Puma did not exit cleanly after TERM (killed by SIGKILL); the measured run had finished, so its numbers stand; see #{log}",
      Rubyrig::Kinds::Http::Driver.unclean_stop_warning("killed by SIGKILL", log)
  end

  def test_says_so_when_both_are_saturated
    assert_match(/saturated as well as the server/, Rubyrig::Kinds::Http::Driver.saturation_warning(0.95, 0.99))
  end
end

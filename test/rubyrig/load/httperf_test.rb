# Tests the httperf closed-loop adapter's argv: one call per connection, client close, no rate.
require "test_helper"

class HttperfTest < Minitest::Test
  Httperf = Rubyrig::Load::Httperf

  def test_argv_makes_one_call_per_connection_without_a_rate
    argv = Httperf.new(binary: "/usr/bin/httperf", connections: 4, timeout_s: 2).argv("http://127.0.0.1:9000/hello?x=1")
    assert_equal "/usr/bin/httperf", argv.first
    assert_equal "1", argv[argv.index("--num-calls") + 1], "one call, then httperf closes the connection itself"
    assert_equal ["--server", "127.0.0.1", "--port", "9000", "--uri", "/hello?x=1"], argv[3, 6]
    refute_includes argv, "--hog", "the kernel picks each port, reusing TIME_WAIT ones; --hog could spin on them past SIGINT"
    refute_includes argv, "--rate", "without a rate each process opens the next connection when the last closed"
    assert Httperf.supports?("client-close")
    refute Httperf.supports?("keepalive")
  end
end

# Tests the private redis-server against the real Debian binary: socket privacy, no persistence,
# version, no TCP listener at all, and that stopping leaves no process or directory behind.
require "test_helper"
require "support/sockets"
require "rubyrig/services/redis_server"

class RedisServerTest < Minitest::Test
  include SlowTest

  def server
    dir = tmpdir
    Rubyrig::Services::RedisServer.new(log_path: File.join(dir, "redis.log"), pid_path: File.join(dir, "redis.pid"))
  end

  def test_unix_socket_in_a_private_directory_without_persistence
    redis = server.start
    begin
      assert_match(/\A\d+\.\d+\.\d+\z/, redis.version)
      assert_match %r{\Aunix:///}, redis.url
      assert_equal 0o700, File.stat(File.dirname(redis.socket_path)).mode & 0o777
      assert_equal 0o700, File.stat(redis.socket_path).mode & 0o777
      assert_equal ["save", ""], redis.call("CONFIG", "GET", "save")
      assert_equal ["appendonly", "no"], redis.call("CONFIG", "GET", "appendonly")
      assert_equal ["port", "0"], redis.call("CONFIG", "GET", "port")
      assert_equal 1, redis.call("RPUSH", "q", "x")
      pid = redis.pid
      dir = File.dirname(redis.socket_path)
    ensure
      redis.stop
    end
    refute redis.alive?
    refute File.exist?(dir)
    assert_raises(Errno::ESRCH) { Process.kill(0, pid) }
  end

  def test_it_listens_on_its_unix_socket_only_never_on_tcp
    redis = server.start
    begin
      listeners = Sockets.listening([redis.pid])
      assert_equal [["unix", redis.socket_path]], listeners.map { |l| [l.kind, l.path] }
      assert_equal "PONG", redis.call("PING")
    ensure
      redis.stop
    end
  end

  def test_a_killed_server_says_how_it_ended
    redis = server.start
    Process.kill("KILL", redis.pid)
    sleep 0.05 while redis.alive?
    assert_equal "killed by SIGKILL", redis.exit_description
  ensure
    redis.stop
  end

  def test_a_missing_binary_names_the_fix
    redis = Rubyrig::Services::RedisServer.new(log_path: File.join(tmpdir, "r.log"), executable: "no-such-redis-server")
    error = assert_raises(Rubyrig::Services::RedisServer::Failure) { redis.start }
    assert_match(/apt-get install redis-server/, error.message)
  end
end

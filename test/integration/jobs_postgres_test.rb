# builtin:uptime-checks with `database:` pointing at a real PostgreSQL: a throwaway cluster (initdb as
# the postgres user, unix socket only, in a temporary directory) receives one row per job. Skipped
# where PostgreSQL's server binaries or the postgres user are missing.
require "test_helper"
require "etc"
require_relative "jobs_test_support"

class JobsPostgresTest < Minitest::Test
  include SlowTest
  include JobsTestSupport

  JOBS = 150
  BIN = Dir.glob("/usr/lib/postgresql/*/bin").max

  def setup
    super
    needs(BIN && File.executable?(File.join(BIN, "initdb")), "PostgreSQL server binaries are not installed")
    needs(Process.uid.zero? && user, "needs root and a postgres user to start a throwaway cluster")
  end

  def user
    Etc.getpwnam("postgres")
  rescue ArgumentError # no such user
    nil
  end

  def as_postgres(*argv) = ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", *argv]

  def test_rows_go_to_postgres
    dir = tmpdir
    File.chown(user.uid, user.gid, dir)
    data = File.join(dir, "data")
    _out, err, exit = Rubyrig::Processes::Child.capture(as_postgres(File.join(BIN, "initdb"), "-D", data, "--auth=trust",
      "--username=postgres", "--no-sync"), timeout_s: 120)
    assert exit.success?, err
    port = rand(20_000..39_999)
    server = Rubyrig::Processes::Child.spawn(as_postgres(File.join(BIN, "postgres"), "-D", data, "-k", dir, "-p", port.to_s,
      "-c", "listen_addresses=", "-c", "fsync=off"), out: File.join(dir, "pg.log"), err: [:child, :out])
    begin
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 30
      sleep 0.1 until psql(dir, port, "SELECT 1") == "1" || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      url = "postgres://postgres@/postgres?host=#{dir}&port=#{port}"
      status, err, trials, results = run_experiment(
        "runtimes" => ["system"],
        "workloads" => [{"builtin" => "uptime-checks", "database" => url, "params" => {"jobs" => JOBS}}],
        "batches" => 2
      )
      assert_equal 0, status, err
      trials.each do |trial|
        assert_equal "ok", trial["status"], trial["reason"]
        assert_equal JOBS, trial["metrics"]["check_rows"]
        assert_equal JOBS.to_s, psql(dir, port, "SELECT count(DISTINCT jid) FROM rubyrig_checks WHERE batch_id = '#{trial["batch_id"]}' AND status = 'up'")
        refute File.exist?(File.join(results, "artifacts", trial["batch_id"], "jobs.sqlite3"))
      end
      assert_equal (2 * JOBS).to_s, psql(dir, port, "SELECT count(*) FROM rubyrig_checks")
      assert_empty survivors(results)
    ensure
      server.stop(grace_s: 10)
    end
  end

  def psql(dir, port, sql)
    out, _err, _exit = Rubyrig::Processes::Child.capture(["psql", "-h", dir, "-p", port.to_s, "-U", "postgres", "-Atc", sql, "postgres"])
    out.strip
  end
end

# Real Puma and wrk, killed from outside during the measured load: Puma's master in one batch, wrk in
# another. Each fails only its batch, with the reason, the third batch is measured as usual, and no
# process of the run is left.
require "test_helper"

class FaultsHttpTest < Minitest::Test
  include SlowTest

  # Descendants of this process (run_cli runs the batches here; each measured command is the child of
  # its timer process) in a batch's artifacts directory.
  def batch_children(batch_dir)
    descendants.filter_map do |pid|
      environ = File.binread("/proc/#{pid}/environ")
      argv = File.binread("/proc/#{pid}/cmdline").split("\0")
      [pid, argv] if environ.include?(batch_dir) || argv.any? { |a| a.include?(batch_dir) }
    rescue SystemCallError # exited while we looked
      nil
    end
  end

  def descendants
    parents = Dir.glob("/proc/[0-9]*").filter_map do |dir|
      [File.basename(dir).to_i, File.binread("#{dir}/stat").split(") ").last.split[1].to_i]
    rescue SystemCallError # exited while we looked
      nil
    end
    found = [Process.pid]
    found.each { |pid| found.concat(parents.select { |_, ppid| ppid == pid }.map(&:first)) }
    found.drop(1)
  end

  def test_puma_exiting_or_wrk_killed_during_the_load_fails_only_its_batch_with_the_reason
    dir = tmpdir
    results = File.join(dir, "run")
    exp = write(dir, "http.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - builtin: rack-hello
          params: {processes: 2}
          duration_s: 5
          warmup_s: 0
      batches: 3
      seed: 1
    YAML
    killed = {}
    killer = Thread.new do
      while killed.size < 2
        Dir.glob(File.join(results, "artifacts", "*", "wrk.log")).each do |log|
          batch_dir = File.dirname(log)
          batch = File.basename(batch_dir)
          next if killed.key?(batch)
          victim = killed.empty? ? "puma" : "wrk"
          pid, = batch_children(batch_dir).find { |_, argv| argv.first.to_s.start_with?(victim) || argv.first.to_s.end_with?("/#{victim}") }
          next unless pid
          sleep 1 # well inside the 5 s of measured load
          Process.kill("KILL", pid)
          killed[batch] = victim
        end
        sleep 0.05
      end
    end
    status, out, err = run_cli("run", exp, "--results", results)
    killer.join(5)
    assert_equal 2, killed.size, "the killer did not find both victims: #{killed}"
    assert_equal 1, status, out + err
    trials = trial_lines(results).to_h { |t| [t["batch_id"], t] }
    puma_batch, wrk_batch = killed.keys
    assert_equal "failed", trials[puma_batch]["status"]
    assert_match(/\APuma exited (during the measured load|while wrk loaded it) \(killed by SIGKILL\): .*; its log is kept in \S+server-stderr\.log\z/,
      trials[puma_batch]["reason"])
    assert_equal "failed", trials[wrk_batch]["status"]
    assert_match(/\Awrk killed by SIGKILL(: .+)? \(see \S+wrk\.log\)\z/, trials[wrk_batch]["reason"])
    other = (trials.keys - killed.keys).first
    assert_equal "ok", trials[other]["status"], trials[other]["reason"]
    assert_operator trials[other].dig("metrics", "requests_per_s"), :>, 0
    assert_empty processes_mentioning(results), "Puma's master, its workers and wrk all carry the run's directory"
  ensure
    killer&.kill
  end
end

# Tests the reading of job records: incremental reads, partial lines, duplicates, errors and metrics.
require "test_helper"

class LedgerTest < Minitest::Test
  Ledger = Rubyrig::Kinds::Jobs::Ledger

  def setup
    @dir = tmpdir
  end

  # Times given in seconds, written as the workers write them: integer nanoseconds. Each jid gets the
  # number the enqueuer would have given it, the same for a job that runs twice.
  def line(jid, enqueued, started, finished, status = "ok", phase = nil)
    @numbers ||= {}
    number = @numbers[jid] ||= @numbers.size
    [jid, number, ns(enqueued), ns(started), ns(finished), status, phase].compact.join("\t") + "\n"
  end

  def ns(seconds) = (seconds == "-") ? "-" : (seconds * 1e9).round

  def append(name, text)
    File.open(File.join(@dir, name), "a") { |f| f.write(text) }
  end

  def test_drain_window_runs_from_the_first_start_to_the_last_finish_across_files
    append("jobs-1.tsv", line("a", 1.0, 10.0, 10.5) + line("b", 1.0, 10.2, 11.0))
    append("jobs-2.tsv", line("c", 2.0, 10.1, 12.0))
    m = Ledger.new(@dir).read.metrics
    assert_in_delta 2.0, m["drain_s"], 1e-9
    assert_in_delta 1.5, m["jobs_per_s"], 1e-9
    assert_equal 3, m["processed_count"]
    assert_in_delta 0.8, m["job_run_p50_s"], 1e-9
    assert_in_delta 9.0, m["queue_wait_p50_s"], 1e-9
    assert m["queue_wait_p99_s"] <= 9.2 + 1e-9
  end

  def test_reads_only_complete_lines_and_resumes_where_it_stopped
    ledger = Ledger.new(@dir)
    append("jobs-1.tsv", line("a", 1, 2, 3) + "b\t1\t#{ns(1)}\t#{ns(2)}")
    assert_equal 1, ledger.read.unique
    append("jobs-1.tsv", "\t#{ns(4)}\tok\n")
    assert_equal 2, ledger.read.unique
    assert_equal 2, ledger.read.processed
    assert_in_delta 2.0, ledger.drain_s, 1e-9
  end

  def test_counts_duplicates_errors_and_unreadable_lines
    append("jobs-1.tsv", line("a", 1, 2, 3) + line("a", 1, 4, 5) + line("b", "-", 2, 3, "RuntimeError") + "garbage\n")
    ledger = Ledger.new(@dir).read
    assert_equal 3, ledger.processed
    assert_equal 2, ledger.unique
    assert_equal 1, ledger.duplicates
    assert_equal({"RuntimeError" => 1}, ledger.errors)
    assert_equal 1, ledger.malformed
    assert_equal 1, ledger.metrics["error_count"]
  end

  def test_completions_count_the_jobs_finished_in_each_slice_since_the_gate
    append("jobs-1.tsv", line("a", 1.0, 10.0, 10.5) + line("b", 1.0, 10.2, 11.0) + line("c", 1.0, 10.1, 14.0))
    timeline = Ledger.new(@dir).read.completions(10.0, buckets: 4)
    assert_in_delta 1.0, timeline["bucket_s"], 1e-9
    assert_equal [1, 1, 0, 1], timeline["completed"], "the last finish falls in the last slice"
    assert_nil Ledger.new(tmpdir).read.completions(10.0, buckets: 4), "no jobs, no timeline"
  end

  def test_no_records_give_no_rates
    m = Ledger.new(@dir).read.metrics
    assert_equal 0, m["processed_count"]
    refute m.key?("jobs_per_s")
    refute m.key?("drain_s")
  end

  def test_warmup_jobs_are_counted_apart_and_left_out_of_the_measured_figures
    append("jobs-1.tsv", line("w1", 1.0, 2.0, 4.0, "ok", "warmup") + line("w2", 1.0, 2.5, 5.0, "ok", "warmup"))
    append("jobs-1.tsv", line("a", 1.0, 10.0, 10.5) + line("b", 1.0, 10.2, 11.0))
    ledger = Ledger.new(@dir).read
    m = ledger.metrics
    assert_equal 4, ledger.unique, "every job, warmup included, is accounted for"
    assert_equal 2, m["processed_count"]
    assert_in_delta 1.0, m["drain_s"], 1e-9, "the drain window is the measured jobs' own"
    assert_in_delta 0.65, m["job_run_p50_s"], 1e-9, "run times 0.5 and 0.8 s, not the warmup's 2 s"
    assert_equal 2, m["warmup_processed_count"]
    assert_in_delta 3.0, m["warmup_drain_s"], 1e-9
    assert_in_delta 2 / 3.0, m["warmup_jobs_per_s"], 1e-9
    assert_equal 2, ledger.completions(0.0, buckets: 11)["completed"].sum, "the timeline counts measured jobs"
  end

  def test_an_unknown_phase_is_unreadable
    append("jobs-1.tsv", line("a", 1, 2, 3, "ok", "later"))
    ledger = Ledger.new(@dir).read
    assert_equal 1, ledger.malformed
    assert_equal 0, ledger.unique
  end

  # Duplicates are told by the number the enqueuer gave each job, one bit per job.
  def test_numbers_tell_duplicates_and_jobs_without_a_number_count_once_each
    append("jobs-1.tsv", "a\t70000\t#{ns(1)}\t#{ns(2)}\t#{ns(3)}\tok\n" + "b\t70000\t#{ns(1)}\t#{ns(4)}\t#{ns(5)}\tok\n")
    append("jobs-1.tsv", "c\t-\t-\t#{ns(2)}\t#{ns(3)}\tok\n" + "c\t-\t-\t#{ns(2)}\t#{ns(3)}\tok\n")
    append("jobs-1.tsv", "d\t-1\t-\t#{ns(2)}\t#{ns(3)}\tok\n" + "e\t99999999999\t-\t#{ns(2)}\t#{ns(3)}\tok\n")
    ledger = Ledger.new(@dir).read
    assert_equal 1, ledger.duplicates
    assert_equal 3, ledger.unique, "a job pushed without a number cannot be told from a duplicate"
    assert_equal 2, ledger.malformed
  end
end

# Tests the open-loop httperf adapter without running httperf: its argv (the rate as a period, one call
# per connection, a random stream per process), how it splits a rate, and when it fell behind, on
# recorded output of a run that kept up and of one that ran out of file descriptors.
require "test_helper"

class HttperfOpenTest < Minitest::Test
  Open = Rubyrig::Load::HttperfOpen
  Output = Rubyrig::Load::HttperfOutput

  def fixture(name) = Output.summary(Rubyrig::Processes::TextFile.read(File.join(RubyrigTest::ROOT, "test/fixtures/load", name)))

  def adapter(rate, arrival = "poisson", cpus: "1")
    Open.new(binary: "/usr/bin/httperf", rate_per_s: rate, arrival: arrival, timeout_s: 2, cpus: cpus)
  end

  def value(argv, flag) = argv[argv.index(flag) + 1]

  def test_poisson_arrivals_are_an_exponential_period_of_the_mean_interval
    argv = adapter(50).argv("http://127.0.0.1:9000/hello?x=1")
    assert_equal "e0.02", value(argv, "--period"), "50/s: a mean of 20 ms between arrivals"
    assert_equal "1", value(argv, "--num-calls"), "one request per connection"
    assert_equal "0/1", value(argv, "--client")
    assert_equal ["--server", "127.0.0.1", "--port", "9000", "--uri", "/hello?x=1"], argv[3, 6]
    refute_includes argv, "--rate"
  end

  def test_constant_arrivals_are_a_fixed_period_in_one_process
    open = adapter(12_000, "constant", cpus: "1-3")
    assert_equal 1, open.processes, "evenly spaced arrivals from several processes would come in bursts"
    assert_equal "d8.33333333e-05", value(open.argv("http://127.0.0.1:9000/"), "--period")
  end

  def test_a_poisson_rate_is_split_over_the_load_cpus_each_with_its_own_stream
    open = adapter(12_000, cpus: "1-2")
    assert_equal 2, open.processes, "at most one spinning process per load CPU"
    argvs = Array.new(2) { |i| open.argv("http://127.0.0.1:9000/", client: i, clients: 2) }
    assert_equal %w[0/2 1/2], argvs.map { |a| value(a, "--client") }, "httperf seeds its random stream with the client id"
    assert_equal ["e0.000166666667"] * 2, argvs.map { |a| value(a, "--period") }, "each offers half the rate"
    assert_equal 1, adapter(100, cpus: "1-2").processes
    assert_raises(Rubyrig::ExperimentError) { adapter(10, "bursty") }
  end

  def test_a_run_that_kept_up_is_not_behind
    data = Output.combine([fixture("httperf-open-poisson.log")])
    assert_equal 430, data["connections"]
    assert_equal [], Open.behind_reasons(data, rate_per_s: 200, arrival: "poisson", processes: 1),
      "430 arrivals in 2.0 s of a 200/s Poisson stream lie within its spread"
  end

  def test_a_run_short_of_arrivals_or_of_file_descriptors_fell_behind
    data = Output.combine([fixture("httperf-open-fd-unavail.log")])
    reasons = Open.behind_reasons(data, rate_per_s: 30_000, arrival: "poisson", processes: 1)
    assert_equal 2, reasons.size
    assert_match(/started 8326 requests in 2.0 s, 4140.2\/s of the 30000\/s asked/, reasons[0])
    assert_match(/no file descriptor for 52370 requests/, reasons[1])
    kept = Output.combine([fixture("httperf-open-poisson.log")])
    assert_match(/of the 300\/s asked/, Open.behind_reasons(kept, rate_per_s: 300, arrival: "poisson", processes: 1).first,
      "430 of the 599 a 300/s stream brings in 2.0 s is beyond its spread")
    assert_equal [], Open.behind_reasons(kept.merge("connections" => 397), rate_per_s: 200, arrival: "constant", processes: 1)
    refute_empty Open.behind_reasons(kept.merge("connections" => 380), rate_per_s: 200, arrival: "constant", processes: 1),
      "evenly spaced arrivals have no spread: 5% short is behind"
  end

  def test_a_generator_kept_off_its_cpu_is_warned_about
    assert_nil Open.cpu_warning(0.97)
    assert_nil Open.cpu_warning(nil)
    assert_match(/httperf had 43% of its CPUs/, Open.cpu_warning(0.43))
  end
end

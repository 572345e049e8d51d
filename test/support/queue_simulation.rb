# A simulated server for the capacity search's tests: one FIFO server with a fixed service time, fed by
# constant or Poisson (seeded) arrivals at an offered rate, as an open-loop generator would measure it.
# Latency counts from each request's arrival (when it was due), as in open loop; a warmup runs first
# and leaves its backlog to the measured window; achieved is the rate the window's requests started
# at, and requests those answered by its end. Lindley's recursion: each request starts when it arrives or when the last one is done.
module QueueSimulation
  Measured = Struct.new(:offered_rate_per_s, :achieved_rate_per_s, :behind, :requests, :duration_s, :latency_s, :error_rate, keyword_init: true)

  PERCENTILES = {"p50" => 0.5, "p90" => 0.9, "p95" => 0.95, "p99" => 0.99, "p999" => 0.999}.freeze

  module_function

  # The probe of a server whose requests each take service_s: rate -> Measured. generator_max_per_s:
  # above this rate the generator falls behind.
  def probe(service_s:, arrival:, step_s:, warmup_s:, seed:, generator_max_per_s: Float::INFINITY)
    random = Random.new(seed)
    lambda do |rate|
      next Measured.new(offered_rate_per_s: rate, achieved_rate_per_s: 0.0, behind: true, requests: 0, duration_s: step_s, latency_s: {}, error_rate: 0.0) if rate > generator_max_per_s
      run(rate, service_s, arrival, step_s, warmup_s, random)
    end
  end

  def run(rate, service_s, arrival, step_s, warmup_s, random)
    free_at = 0.0
    latencies = []
    started = 0
    arrivals(rate, arrival, warmup_s + step_s, random).each do |at|
      done = [at, free_at].max + service_s
      free_at = done
      started += 1 if at >= warmup_s
      latencies << done - at if at >= warmup_s && done <= warmup_s + step_s
    end
    sorted = latencies.sort
    Measured.new(offered_rate_per_s: rate, achieved_rate_per_s: started.fdiv(step_s), behind: false, error_rate: 0.0,
      requests: latencies.size, duration_s: step_s,
      latency_s: PERCENTILES.transform_values { |q| sorted[(q * sorted.size).ceil - 1] })
  end

  def arrivals(rate, arrival, until_s, random)
    return (0...(rate * until_s).floor).map { |i| i.fdiv(rate) } if arrival == "constant"
    times = []
    t = -Math.log(1 - random.rand) / rate
    while t < until_s
      times << t
      t += -Math.log(1 - random.rand) / rate
    end
    times
  end

  # P(wait <= t) in an M/D/1 queue with arrival rate lambda and service time d (Erlang's formula, the
  # sum over the services that can end before t). Its terms alternate in sign and grow with t / d, so
  # floats keep it accurate up to about 20 service times only.
  def md1_wait_cdf(t, lambda, d)
    rho = lambda * d
    (0..(t / d).floor).sum { |k| (lambda * (k * d - t))**k / Math.gamma(k + 1) * Math.exp(-lambda * (k * d - t)) } * (1 - rho)
  end

  # The rate at which an M/D/1 queue's p-quantile of the time in the system (wait plus service) is bound_s.
  def md1_rate_at(quantile, bound_s, d)
    low = 0.01 / d
    high = 0.9999 / d
    60.times do
      mid = (low + high) / 2
      (md1_wait_cdf(bound_s - d, mid, d) >= quantile) ? low = mid : high = mid
    end
    low
  end
end

# Series and change points shaped like History::Series, History::Point and Analysis::ChangePoints'
require "time"
# results, built from numbers given here, for the history output's tests.
module HistoryFixtures
  FakeSeries = Struct.new(:workload, :params, :runtime, :metric, :unit, :higher_is_better, :kind, :primary, :points, keyword_init: true)
  FakePoint = Struct.new(:run_id, :started_at, :host, :host_id, :interpreter, :build, :version, :revision, :dirty, :values, keyword_init: true)
  FakeChange = Struct.new(:index, :runs_before, :runs_after, :ratio, :low, :high, :verdict, :p_value, :p_adjusted, :reason, :method, keyword_init: true)

  # Returns the change points it was built with, and records what it was asked.
  class FakeFinder
    attr_reader :calls

    def initialize(changes = [])
      @changes = changes
      @calls = []
    end

    def of(samples, higher_is_better:, speed:, alpha:, seed:, breaks:)
      @calls << {samples: samples, higher_is_better: higher_is_better, speed: speed, alpha: alpha, seed: seed, breaks: breaks}
      @changes
    end
  end

  T0 = Time.utc(2026, 11, 20, 10, 0)

  # levels: one median per run (each run gets 5 batch values around it, ±1%).
  def series(levels, runtime: "3.3.8+yjit", metric: "wall_s", unit: "s", higher_is_better: false, hosts: nil, builds: nil,
    versions: nil, workload: "nbody")
    points = levels.each_with_index.map do |level, i|
      FakePoint.new(run_id: "run-#{i + 1}", started_at: (T0 + i * 3600).iso8601, host: "fp-#{hosts ? hosts[i] : "box"}", host_id: hosts ? hosts[i] : "box",
        interpreter: "ruby #{versions ? versions[i] : "3.3.8"}", build: builds ? builds[i] : "b1",
        version: versions ? versions[i] : "3.3.8", revision: format("%07x%s", 0xa1b2c3 + i, "0" * 33),
        values: [0.99, 0.995, 1.0, 1.005, 1.01].map { |f| level * f })
    end
    FakeSeries.new(workload: workload, params: {"steps" => 200}, runtime: runtime, metric: metric, unit: unit,
      higher_is_better: higher_is_better, kind: "speed", primary: true, points: points)
  end

  def slower_at(index, size, ratio: 1.12, low: 1.08, high: 1.16, verdict: "slower")
    FakeChange.new(index: index, runs_before: 0...index, runs_after: index...size, method: "E-divisive means", ratio: ratio, low: low, high: high,
      verdict: verdict, p_value: 0.001, p_adjusted: 0.002)
  end
end

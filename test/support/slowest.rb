# A minitest reporter that prints the slowest tests when a run ends, to show where the suite's time goes.
module RubyrigTest
  class Slowest < Minitest::AbstractReporter
    COUNT = 15

    def self.minitest_plugin_init(options)
      Minitest.reporter << new(options[:io])
    end

    def initialize(io)
      super()
      @io = io
      @timings = []
    end

    def record(result)
      @timings << [result.time, "#{result.klass}##{result.name}"]
    end

    def report
      return if @timings.empty?
      slowest = @timings.max_by(COUNT, &:first)
      @io.puts "\nSlowest #{slowest.size} of #{@timings.size} tests (#{format("%.1f", total_s)} s in tests):"
      slowest.each { |time_s, name| @io.puts format("%8.2f s  %s", time_s, name) }
    end

    private

    def total_s
      @timings.sum(&:first)
    end
  end
end

Minitest.register_plugin(RubyrigTest::Slowest)

# Which harness a script workload's file is written for, read from the file itself: ruby-bench's
# (it loads harness/loader or calls run_benchmark), benchmark-ips's (it calls Benchmark.ips or requires
# benchmark/ips), or rubyrig's own (Rubyrig.bench, or nothing: the whole run is timed). Also how
# ruby-bench names a benchmark file and finds one by name in a checkout of ruby-bench.
module Rubyrig
  module Drivers
    module ScriptForm
      RUBYRIG = "rubyrig"
      RUBY_BENCH = "ruby-bench"
      BENCHMARK_IPS = "benchmark-ips"
      ALL = [RUBYRIG, RUBY_BENCH, BENCHMARK_IPS].freeze

      RUBY_BENCH_PATTERN = %r{harness/loader['"]|^\s*run_benchmark\b}
      BENCHMARK_IPS_PATTERN = %r{\bBenchmark\.ips(_quick)?\b|require\s*\(?\s*['"]benchmark/ips['"]}
      BENCHMARKS_DIR = "benchmarks"

      module_function

      def detect(path)
        text = Processes::TextFile.read(path)
        return RUBY_BENCH if text.match?(RUBY_BENCH_PATTERN)
        return BENCHMARK_IPS if text.match?(BENCHMARK_IPS_PATTERN)
        RUBYRIG
      end

      # A checkout of ruby-bench (or a tree laid out like it): a directory with a benchmarks/ folder.
      def suite?(path) = File.directory?(File.join(path, BENCHMARKS_DIR))

      # The file of benchmark `name` in a suite, found as ruby-bench finds it: benchmarks/NAME.rb,
      # benchmarks/NAME/benchmark.rb, or benchmarks/DIR/SUFFIX.rb for NAME = DIR-SUFFIX in a folder
      # without benchmark.rb; nil when there is none.
      def suite_file(root, name)
        dir = File.join(root, BENCHMARKS_DIR)
        name = name.to_s
        return nil if name.empty? || name.include?("/") || name.start_with?(".")
        single = File.join(dir, "#{name}.rb")
        return single if File.file?(single)
        own = File.join(dir, name, "benchmark.rb")
        return own if File.file?(own)
        suite_names(root)[name]
      end

      # Every benchmark name in a suite => its file.
      def suite_names(root)
        dir = File.join(root, BENCHMARKS_DIR)
        Dir.children(dir).sort.each_with_object({}) do |entry, names|
          path = File.join(dir, entry)
          if File.file?(path) && entry.end_with?(".rb")
            names[entry.delete_suffix(".rb")] = path
          elsif File.directory?(path)
            files = Dir.children(path).select { |f| f.end_with?(".rb") && File.file?(File.join(path, f)) }.sort
            if files.include?("benchmark.rb")
              names[entry] = File.join(path, "benchmark.rb")
            else
              files.each { |f| names["#{entry}-#{f.delete_suffix(".rb")}"] = File.join(path, f) }
            end
          end
        end
      end

      # The name ruby-bench gives a benchmark file: fib for benchmarks/fib.rb, railsbench for
      # benchmarks/railsbench/benchmark.rb, addressable-join for benchmarks/addressable/join.rb.
      def ruby_bench_name(path)
        base = File.basename(path, ".rb")
        parent = File.basename(File.dirname(path))
        return base if parent == BENCHMARKS_DIR
        (base == "benchmark") ? parent : "#{parent}-#{base}"
      end
    end
  end
end

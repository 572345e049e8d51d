# Loaded INSIDE the measured Ruby process (with -r or RUBYOPT) to report what really ran: interpreter,
# YJIT, allocator, M:N setting, GC and memory. At exit it writes one JSON file per process into the
# directory named by RUBYRIG_PROBE_DIR and never prints to stdout.
# Standard library only and old syntax on purpose: it must load on any CRuby from 2.0 and on JRuby.

module RubyrigProbe
  STARTED_AT = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  YJIT_KEYS = %w[code_region_size yjit_alloc_size inline_code_size outlined_code_size compile_time_ns
    ratio_in_yjit compiled_iseq_count compiled_block_count invalidation_count live_iseq_count].freeze
  ALLOCATORS = [["jemalloc", /libjemalloc/], ["tcmalloc", /libtcmalloc/], ["mimalloc", /libmimalloc/]].freeze

  @records = {}

  class << self
    # Other in-process parts (the bench harness, GVL instrumentation) hand their data over here.
    def record(key, value)
      @records[key.to_s] = value
    end

    def report
      facts = {
        "pid" => Process.pid,
        "ppid" => Process.ppid,
        "program" => $0.to_s,
        "engine" => (defined?(RUBY_ENGINE) ? RUBY_ENGINE : "ruby"),
        "engine_version" => (defined?(RUBY_ENGINE_VERSION) ? RUBY_ENGINE_VERSION : RUBY_VERSION),
        "ruby_version" => RUBY_VERSION,
        "description" => RUBY_DESCRIPTION,
        "started_at_monotonic" => STARTED_AT,
        "exited_at_monotonic" => Process.clock_gettime(Process::CLOCK_MONOTONIC),
        "yjit_enabled" => yjit_enabled?,
        "yjit" => yjit_stats,
        "allocator" => allocator,
        "mn_threads_env" => ENV["RUBY_MN_THREADS"],
        "env" => echoed_env,
        "gc" => gc_stats,
        "memory" => memory,
        "threads" => Thread.list.size
      }
      @records.each { |key, value| facts[key] = value }
      facts
    end

    def yjit_enabled?
      (defined?(RubyVM::YJIT) && RubyVM::YJIT.respond_to?(:enabled?)) ? RubyVM::YJIT.enabled? : false
    end

    def yjit_stats
      return nil unless yjit_enabled? && RubyVM::YJIT.respond_to?(:runtime_stats)
      stats = RubyVM::YJIT.runtime_stats
      return nil unless stats.is_a?(Hash)
      picked = {}
      YJIT_KEYS.each do |key|
        value = stats[key.to_sym]
        picked[key] = value if value.is_a?(Numeric)
      end
      picked
    rescue # YJIT stats differ between versions; a missing API must not break the run
      nil
    end

    def allocator
      maps = read("/proc/self/maps")
      return "unknown" unless maps
      ALLOCATORS.each { |name, pattern| return name if maps&.match?(pattern) }
      "glibc"
    end

    def echoed_env
      keys = ENV["RUBYRIG_PROBE_ENV_KEYS"].to_s.split(",")
      pairs = {}
      keys.each { |key| pairs[key] = ENV[key] }
      pairs
    end

    def gc_stats
      stat = GC.stat
      {
        "count" => stat[:count],
        "minor_count" => stat[:minor_gc_count],
        "major_count" => stat[:major_gc_count],
        "time_ms" => stat[:time],
        "total_allocated_objects" => stat[:total_allocated_objects]
      }
    rescue # GC.stat is partial on some engines
      {}
    end

    def memory
      status = read("/proc/self/status").to_s
      rollup = read("/proc/self/smaps_rollup").to_s
      {
        "rss_bytes" => kilobytes(status, "VmRSS"),
        "hwm_bytes" => kilobytes(status, "VmHWM"),
        "pss_bytes" => kilobytes(rollup, "Pss")
      }
    end

    def kilobytes(text, field)
      m = text.match(/^#{field}:\s+(\d+) kB/)
      m ? m[1].to_i * 1024 : nil
    end

    def read(path)
      File.read(path)
    rescue SystemCallError # not on Linux, or not allowed: report unknown rather than fail
      nil
    end

    def write(dir)
      path = File.join(dir, "probe-" + Process.pid.to_s + ".json")
      tmp = path + ".tmp"
      File.write(tmp, encode(report))
      File.rename(tmp, path)
    end

    # A small JSON encoder, so that the probe never loads the json gem into the measured process.
    def encode(value)
      case value
      when Hash then "{" + value.map { |k, v| encode(k.to_s) + ":" + encode(v) }.join(",") + "}"
      when Array then "[" + value.map { |v| encode(v) }.join(",") + "]"
      when String, Symbol then encode_string(value.to_s)
      when Integer then value.to_s
      when Float then value.finite? ? value.to_s : "null"
      when true then "true"
      when false then "false"
      else "null"
      end
    end

    def encode_string(text)
      text = text.dup.force_encoding("UTF-8")
      text = text.encode("UTF-8", "binary", invalid: :replace, undef: :replace) unless text.valid_encoding?
      escaped = text.gsub(/["\\\x00-\x1f]/) do |c|
        case c
        when '"' then '\\"'
        when "\\" then "\\\\"
        when "\n" then "\\n"
        when "\t" then "\\t"
        else format("\\u%04x", c.ord)
        end
      end
      '"' + escaped + '"'
    end
  end
end

if ENV["RUBYRIG_PROBE_DIR"]
  at_exit do
    RubyrigProbe.write(ENV["RUBYRIG_PROBE_DIR"])
  rescue => e # never change the measured program's exit because of the probe
    warn("rubyrig probe: could not write facts: " + e.message)
  end
end

# The probe's extras, which probe.rb loads at their first use (RubyrigProbe.extra): what only some
# measured processes need, kept out of what every process loads. YJIT's statistics (YJIT on), the
# allocator (the +jemalloc variants), M:N threads (+mn), PSS and the facts written at boot (servers and
# workers), the echoed environment, the records of the harnesses, the reset in a forked child, and a
# general JSON encoder with escapes for the strings that need them. Same rules as probe.rb: standard
# library only, Ruby 2.5 syntax (test/rubyrig/probe/old_ruby_syntax_test.rb), JRuby.
module RubyrigProbe
  YJIT_KEYS = %w[code_region_size yjit_alloc_size inline_code_size outlined_code_size compile_time_ns
    ratio_in_yjit compiled_iseq_count compiled_block_count invalidation_count live_iseq_count].freeze
  ALLOCATORS = %w[jemalloc tcmalloc mimalloc].freeze
  ESCAPES = {'"' => '\\"', "\\" => "\\\\", "\n" => "\\n", "\t" => "\\t"}.freeze
  UNSAFE = /["\\\x00-\x1f]/

  class << self
    # The members of the exit report that only some processes have, each after a comma: YJIT's
    # statistics (YJIT on), whether M:N threads are on (+mn variants), and the records.
    def optional_members(records)
      text = ""
      text << ",\"yjit\":#{encode(yjit_stats)}" if yjit?
      text << ",\"mn_active\":#{encode(mn_active?)}" if ENV["RUBYRIG_PROBE_MN"] == "1"
      records.each { |key, value| text << ",#{encode(key)}:#{encode(value)}" }
      text
    end

    # The variables rubyrig asked to see (RUBYRIG_PROBE_ENV_KEYS, comma-separated), as a JSON object.
    def echoed_env(keys)
      env = {}
      keys.split(",").each { |key| env[key] = ENV[key] }
      encode(env)
    end

    # PSS, which walks every page table (about 0.2 ms): only where it tells something, in servers and
    # workers whose forks share pages.
    def pss_member
      ",\"pss_bytes\":#{encode(kilobytes(read("/proc/self/smaps_rollup"), "Pss:"))}"
    end

    def yjit_stats
      stats = RubyVM::YJIT.respond_to?(:runtime_stats) && RubyVM::YJIT.runtime_stats
      return nil unless stats.is_a?(Hash)
      picked = {}
      YJIT_KEYS.each { |key| picked[key] = stats[key.to_sym] if stats[key.to_sym].is_a?(Numeric) }
      picked["code_region_size"] ||= executable_anonymous_bytes
      picked
    rescue # YJIT stats differ between versions; a missing API must not break the run
      nil
    end

    # CRuby 3.1's YJIT does not report its code region: it maps the whole region (--yjit-exec-mem-size)
    # as one anonymous executable mapping at boot and writes all of it (its Rss equals its size). The
    # mapping's size, from the memory map (about 0.2 ms; smaps would walk its 65,536 pages, 8 ms).
    def executable_anonymous_bytes
      maps = read("/proc/self/maps")
      return nil unless maps
      total = nil
      maps.each_line do |line|
        next unless line =~ /\A(\h+)-(\h+) r.xp 0+ 00:00 0\s*\z/
        total = total.to_i + ($2.hex - $1.hex)
      end
      total
    end

    # Reading the memory map costs about 0.2 ms, so it is read only when a variant expects an allocator.
    def allocator
      maps = read("/proc/self/maps")
      return "unknown" unless maps
      ALLOCATORS.find { |name| maps.include?("lib" + name) } || "glibc"
    end

    # Whether M:N threads are on, seen from how the process behaves: with them, threads blocked on a
    # queue share a few native threads; without, each has its own. Run at exit, after the measurement.
    def mn_active?
      return false unless RUBY_ENGINE == "ruby" && RUBY_VERSION >= "3.3"
      before = native_threads
      return nil unless before
      queue = Queue.new
      threads = Array.new(8) { Thread.new { queue.pop } }
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 1.0
      sleep 0.001 until threads.all? { |t| t.status == "sleep" } || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      added = native_threads - before
      threads.size.times { queue << nil }
      threads.each(&:join)
      added < threads.size / 2
    end

    def native_threads
      Dir.entries("/proc/self/task").size - 2
    rescue SystemCallError # no /proc: cannot tell
      nil
    end

    # In a forked child: forget what the parent recorded and count GC from here.
    def after_fork_in_child
      @records = {}
      @gc_baseline = gc_totals.first(5) # GC's work; the heap's size is not counted from the fork
      write_boot(ENV["RUBYRIG_PROBE_DIR"]) if ENV["RUBYRIG_PROBE_DIR"] && ENV["RUBYRIG_PROBE_EARLY"] == "1"
    end

    def write_boot(dir)
      write(dir, "{#{boot_members},\"boot_only\":true}", ".boot.json")
    rescue SystemCallError => e # the measured program goes on; the exit report may still come
      warn("rubyrig probe: could not write boot facts: " + e.message)
    end

    # Any value the probe records as JSON: what JSON cannot hold (a non-finite float, another object) as null.
    def encode(value)
      case value
      when Integer, true, false then value.to_s
      when String, Symbol then string(value.to_s)
      when Hash then "{#{value.map { |k, v| "#{string(k.to_s)}:#{encode(v)}" }.join(",")}}"
      when Float then value.finite? ? value.to_s : "null"
      when Array then "[#{value.map { |v| encode(v) }.join(",")}]"
      else "null"
      end
    end

    # A string with characters JSON must escape, or not valid UTF-8 (repaired first), as a JSON string.
    def escape(text)
      text = text.dup.force_encoding(Encoding::UTF_8)
      text = text.encode(Encoding::UTF_8, Encoding::BINARY, invalid: :replace, undef: :replace) unless text.valid_encoding?
      "\"#{text.gsub(UNSAFE) { |c| ESCAPES[c] || format("\\u%04x", c.ord) }}\""
    end
  end
end

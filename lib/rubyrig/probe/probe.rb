# Loaded INSIDE the measured Ruby process (with -r or RUBYOPT) to report what really ran: interpreter,
# YJIT, allocator, M:N, GC and memory (RSS, and the Ruby heap's pages). At exit it writes one JSON file per process into the directory
# named by RUBYRIG_PROBE_DIR and never prints to stdout. With RUBYRIG_PROBE_EARLY=1 (long-lived
# servers and workers, which rubyrig may have to kill) it also writes the facts known at boot as
# probe-<pid>.boot.json, so that a process that never reaches its exit is still verified. A forked
# child reports its own GC work since the fork, not its parent's totals.
# Standard library only and old syntax on purpose: it must load on CRuby 2.5 and later and on JRuby
# (test/rubyrig/probe/old_ruby_syntax_test.rb parses it with Ruby 2.5's grammar).
# Every measured process pays for loading this file (bench/probe-cost counts it), so it stays small:
# few methods and blocks, no regexp built at run time, nothing done at load that the exit can do.

# Loaded already, from the instructions the loader read: requiring the source too must not load it twice.
return if defined?(RubyrigProbe::LOADED_AT)

module RubyrigProbe
  # The loader sets it on its first line, so that the probe's cost includes its own load.
  STARTED_AT = Process.clock_gettime(Process::CLOCK_MONOTONIC) unless const_defined?(:STARTED_AT, false)
  GC_KEYS = {"count" => :count, "minor_count" => :minor_gc_count, "major_count" => :major_gc_count,
             "time_ms" => :time, "total_allocated_objects" => :total_allocated_objects}.freeze
  YJIT_KEYS = %w[code_region_size yjit_alloc_size inline_code_size outlined_code_size compile_time_ns
    ratio_in_yjit compiled_iseq_count compiled_block_count invalidation_count live_iseq_count].freeze
  ALLOCATORS = %w[jemalloc tcmalloc mimalloc].freeze

  @records = {}
  @gc_baseline = nil

  class << self
    # Other in-process parts (the bench harness, GVL instrumentation) hand their data over here.
    def record(key, value)
      @records[key.to_s] = value
    end

    # The facts a process has from its first line on; the rest of #report needs it to have run.
    def boot_facts
      env = {}
      ENV["RUBYRIG_PROBE_ENV_KEYS"].to_s.split(",").each { |key| env[key] = ENV[key] }
      {"pid" => Process.pid, "ppid" => Process.ppid, "engine" => (defined?(RUBY_ENGINE) ? RUBY_ENGINE : "ruby"),
       "engine_version" => (defined?(RUBY_ENGINE_VERSION) ? RUBY_ENGINE_VERSION : RUBY_VERSION),
       "ruby_version" => RUBY_VERSION, "description" => RUBY_DESCRIPTION, "started_at_monotonic" => STARTED_AT,
       "yjit_enabled" => yjit_enabled?, "allocator" => (ENV["RUBYRIG_PROBE_ALLOCATOR"] == "1") ? allocator : nil,
       "mn_threads_env" => ENV["RUBY_MN_THREADS"], "env" => env, "boot_only" => true}
    end

    def report
      began = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      facts = boot_facts
      facts.delete("boot_only")
      facts["program"] = $0.to_s
      facts["exited_at_monotonic"] = began
      facts["yjit"] = yjit_enabled? ? yjit_stats : nil
      facts["mn_active"] = mn_active? if ENV["RUBYRIG_PROBE_MN"] == "1"
      now = gc_totals
      facts["gc"] = now
      now.each_key { |key| now[key] -= @gc_baseline[key] if now[key] && @gc_baseline[key] } if @gc_baseline
      facts["memory"] = memory
      facts["threads"] = Thread.list.size
      facts.update(@records)
      # The probe's own cost in this process: loading it (from the loader's first line), and this report.
      facts["probe_load_s"] = LOADED_AT - STARTED_AT
      facts["probe_report_s"] = Process.clock_gettime(Process::CLOCK_MONOTONIC) - began
      facts
    end

    def yjit_enabled?
      (defined?(RubyVM::YJIT) && RubyVM::YJIT.respond_to?(:enabled?)) ? RubyVM::YJIT.enabled? : false
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

    # Reading the memory map costs about 0.2 ms, so it is read only when a variant expects an allocator.
    def allocator
      maps = read("/proc/self/maps")
      return "unknown" unless maps
      ALLOCATORS.find { |name| maps.include?("lib" + name) } || "glibc"
    end

    # GC work of this process: since its fork for a forked child (whose GC.stat starts at the parent's
    # totals), else since boot. One GC.stat costs less than asking for each counter.
    def gc_totals
      stat = GC.stat
      totals = {}
      GC_KEYS.each { |name, key| totals[name] = stat[key] }
      totals
    rescue # GC.stat is partial on some engines
      {}
    end

    # In a forked child: forget what the parent recorded and count GC from here.
    def after_fork_in_child
      @records = {}
      @gc_baseline = gc_totals
      write_boot(ENV["RUBYRIG_PROBE_DIR"]) if ENV["RUBYRIG_PROBE_DIR"] && ENV["RUBYRIG_PROBE_EARLY"] == "1"
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

    # RSS now and at its peak; PSS (which walks every page table, about 0.2 ms) only where it tells
    # something, in servers and workers whose forks share pages (RUBYRIG_PROBE_PSS=1).
    def memory
      status = read("/proc/self/status")
      facts = {"rss_bytes" => kilobytes(status, "VmRSS:"), "hwm_bytes" => kilobytes(status, "VmHWM:")}
      facts["pss_bytes"] = kilobytes(read("/proc/self/smaps_rollup"), "Pss:") if ENV["RUBYRIG_PROBE_PSS"] == "1"
      facts["ruby_heap_bytes"] = ruby_heap_bytes
      facts
    end

    # The Ruby heap's pages (the objects' slots, not what they allocate with malloc), or nil where the
    # engine's GC does not say (JRuby).
    def ruby_heap_bytes
      page = defined?(GC::INTERNAL_CONSTANTS) && GC::INTERNAL_CONSTANTS[:HEAP_PAGE_SIZE]
      pages = page && GC.stat(:heap_allocated_pages)
      pages.is_a?(Integer) ? pages * page : nil
    rescue ArgumentError # GC.stat has no such key on this engine
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

    # The number after "Field:" in a /proc file ("VmRSS:   1234 kB"), in bytes; found without a regexp.
    def kilobytes(text, field)
      at = text&.index(field)
      at ? text[at + field.size, 24].to_i * 1024 : nil
    end

    def read(path)
      File.read(path)
    rescue SystemCallError # not on Linux, or not allowed: report unknown rather than fail
      nil
    end

    def write(dir)
      write_file(File.join(dir, "probe-" + Process.pid.to_s + ".json"), report)
    end

    def write_boot(dir)
      write_file(File.join(dir, "probe-" + Process.pid.to_s + ".boot.json"), boot_facts)
    rescue SystemCallError => e # the measured program goes on; the exit report may still come
      warn("rubyrig probe: could not write boot facts: " + e.message)
    end

    # Straight to its name, without a temporary file and a rename (30 us less in every process): rubyrig
    # reads the files once the process has ended, and skips one it finds cut short (killed while writing).
    def write_file(path, facts)
      File.write(path, encode(facts))
    end

    # A small JSON encoder, so that the probe never loads the json gem into the measured process. It
    # runs in every process at exit, so it makes few calls: interpolation, not String#+.
    def encode(value)
      case value
      when Integer, true, false then value.to_s
      when String, Symbol then encode_string(value.to_s)
      when Hash then "{#{value.map { |k, v| "#{encode_string(k.to_s)}:#{encode(v)}" }.join(",")}}"
      when Float then value.finite? ? value.to_s : "null"
      when Array then "[#{value.map { |v| encode(v) }.join(",")}]"
      else "null"
      end
    end

    # Most strings are plain ASCII with nothing to escape (every key, most values): they skip the rest.
    def encode_string(text)
      return "\"#{text}\"" if text.ascii_only? && !text.match?(UNSAFE)
      text = text.dup.force_encoding(Encoding::UTF_8)
      text = text.encode(Encoding::UTF_8, Encoding::BINARY, invalid: :replace, undef: :replace) unless text.valid_encoding?
      "\"#{text.gsub(UNSAFE) { |c| ESCAPES[c] || format("\\u%04x", c.ord) }}\""
    end
  end
  UNSAFE = /["\\\x00-\x1f]/
  ESCAPES = {'"' => '\\"', "\\" => "\\\\", "\n" => "\\n", "\t" => "\\t"}.freeze
end

# Hooks Process._fork (Ruby 3.1+) so that every fork, whatever calls it, resets the child's account.
module RubyrigProbeForkHook
  def _fork
    pid = super
    RubyrigProbe.after_fork_in_child if pid == 0
    pid
  end
end

RubyrigProbe::LOADED_AT = Process.clock_gettime(Process::CLOCK_MONOTONIC)

if ENV["RUBYRIG_PROBE_DIR"]
  Process.singleton_class.prepend(RubyrigProbeForkHook) if Process.respond_to?(:_fork)
  RubyrigProbe.write_boot(ENV["RUBYRIG_PROBE_DIR"]) if ENV["RUBYRIG_PROBE_EARLY"] == "1"
  at_exit do
    RubyrigProbe.write(ENV["RUBYRIG_PROBE_DIR"])
  rescue => e # never change the measured program's exit because of the probe
    warn("rubyrig probe: could not write facts: " + e.message)
  end
end

# Loaded INSIDE the measured Ruby process (with -r or RUBYOPT) to report what really ran: interpreter,
# YJIT, allocator, M:N, GC and memory (RSS, and the Ruby heap's pages). At exit it writes one JSON file
# per process into the directory named by RUBYRIG_PROBE_DIR and never prints to stdout. With
# RUBYRIG_PROBE_EARLY=1 (long-lived servers and workers, which rubyrig may have to kill) it also writes
# the facts known at boot as probe-<pid>.boot.json, so that a process that never reaches its exit is
# still verified. A forked child reports its own GC work since the fork, not its parent's totals.
# Standard library only and old syntax on purpose: it must load on CRuby 2.5 and later and on JRuby
# (test/rubyrig/probe/old_ruby_syntax_test.rb parses it with Ruby 2.5's grammar).
# Every measured process pays for loading this file (bench/probe-cost counts it; its load grows by about
# 11 us per KB of instructions), so it holds only what every process runs: what only some need is in
# extras.rb, loaded at its first use. Few methods and blocks, no regexp built at run time, nothing done
# at load that the exit can do.

# Loaded already, from the instructions the loader read: requiring the source too must not load it twice.
return if defined?(RubyrigProbe::LOADED_AT)

module RubyrigProbe
  # The loader sets it on its first line, so that the probe's cost includes its own load.
  STARTED_AT = Process.clock_gettime(Process::CLOCK_MONOTONIC) unless const_defined?(:STARTED_AT, false)
  UNSAFE = /["\\\x00-\x1f]/

  @records = {}
  @gc_baseline = nil

  class << self
    # Other in-process parts (the bench harness, GVL instrumentation) hand their data over here.
    def record(key, value)
      @records[key.to_s] = value
    end

    # Calls one of the extras, loading them at the first call: from their instructions beside the
    # probe's (RUBYRIG_PROBE_ISEQ's name, ending in .extras.bin instead of .bin), else from their source.
    def extra(name, *args)
      @extras ||= begin
        RubyVM::InstructionSequence.load_from_binary(File.binread(ENV["RUBYRIG_PROBE_ISEQ"].to_s.chomp(".bin") + ".extras.bin")).eval
        true
      rescue NameError, SystemCallError, RuntimeError, TypeError, ArgumentError # JRuby, missing, or another build's
        require File.expand_path("extras.rb", __dir__)
      end
      send(name, *args)
    end

    # The facts a process has from its first line on; the rest of #report needs it to have run.
    def boot_facts
      env = {}
      ENV["RUBYRIG_PROBE_ENV_KEYS"].to_s.split(",").each { |key| env[key] = ENV[key] }
      {"pid" => Process.pid, "ppid" => Process.ppid, "engine" => RUBY_ENGINE, "engine_version" => RUBY_ENGINE_VERSION,
       "ruby_version" => RUBY_VERSION, "description" => RUBY_DESCRIPTION, "started_at_monotonic" => STARTED_AT,
       "yjit_enabled" => defined?(RubyVM::YJIT.enabled?) ? RubyVM::YJIT.enabled? : false,
       "allocator" => (ENV["RUBYRIG_PROBE_ALLOCATOR"] == "1") ? extra(:allocator) : nil,
       "mn_threads_env" => ENV["RUBY_MN_THREADS"], "env" => env, "boot_only" => true}
    end

    def report
      began = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      facts = boot_facts
      facts.delete("boot_only")
      facts["program"] = $0.to_s
      facts["exited_at_monotonic"] = began
      facts["yjit"] = facts["yjit_enabled"] ? extra(:yjit_stats) : nil
      facts["mn_active"] = extra(:mn_active?) if ENV["RUBYRIG_PROBE_MN"] == "1"
      stat = gc_stat
      now = gc_totals(stat)
      now.each_key { |key| now[key] -= @gc_baseline[key] if now[key] && @gc_baseline[key] } if @gc_baseline
      facts["gc"] = now
      facts["memory"] = memory(stat)
      facts["threads"] = Thread.list.size
      facts.update(@records)
      # The probe's own cost in this process: loading it (from the loader's first line), and this report.
      facts["probe_load_s"] = LOADED_AT - STARTED_AT
      facts["probe_report_s"] = Process.clock_gettime(Process::CLOCK_MONOTONIC) - began
      facts
    end

    def gc_stat
      GC.stat
    rescue # GC.stat is partial on some engines
      {}
    end

    # GC work from one GC.stat (since the fork, for a forked child, less its baseline).
    def gc_totals(stat)
      {"count" => stat[:count], "minor_count" => stat[:minor_gc_count], "major_count" => stat[:major_gc_count],
       "time_ms" => stat[:time], "total_allocated_objects" => stat[:total_allocated_objects]}
    end

    # RSS now and at its peak; the Ruby heap's pages (the objects' slots, not what they allocate with
    # malloc; nil where the engine's GC does not say, as JRuby's); PSS (which walks every page table,
    # about 0.2 ms) only where it tells something, in servers and workers whose forks share pages.
    def memory(stat)
      status = read("/proc/self/status")
      page = defined?(GC::INTERNAL_CONSTANTS) && GC::INTERNAL_CONSTANTS[:HEAP_PAGE_SIZE]
      pages = page && stat[:heap_allocated_pages]
      facts = {"rss_bytes" => kilobytes(status, "VmRSS:"), "hwm_bytes" => kilobytes(status, "VmHWM:"),
               "ruby_heap_bytes" => pages.is_a?(Integer) ? pages * page : nil}
      facts["pss_bytes"] = kilobytes(read("/proc/self/smaps_rollup"), "Pss:") if ENV["RUBYRIG_PROBE_PSS"] == "1"
      facts
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

    # Straight to its name, without a temporary file and a rename (30 us less in every process): rubyrig
    # reads the files once the process has ended, and skips one it finds cut short (killed while writing).
    def write(dir, facts, suffix)
      File.write(File.join(dir, "probe-" + Process.pid.to_s + suffix), encode(facts))
    end

    # A small JSON encoder, so that the probe never loads the json gem into the measured process. It
    # runs in every process at exit, so it makes few calls: interpolation, not String#+. Most strings
    # are plain ASCII with nothing to escape (every key, most values); the extras escape the others.
    def encode(value)
      case value
      when Integer, true, false then value.to_s
      when String, Symbol then (value.to_s.ascii_only? && !value.to_s.match?(UNSAFE)) ? "\"#{value}\"" : extra(:escape, value.to_s)
      when Hash then "{#{value.map { |k, v| "#{encode(k.to_s)}:#{encode(v)}" }.join(",")}}"
      when Float then value.finite? ? value.to_s : "null"
      when Array then "[#{value.map { |v| encode(v) }.join(",")}]"
      else "null"
      end
    end
  end
end

# Hooks Process._fork (Ruby 3.1+) so that every fork, whatever calls it, resets the child's account.
module RubyrigProbeForkHook
  def _fork
    pid = super
    RubyrigProbe.extra(:after_fork_in_child) if pid == 0
    pid
  end
end

RubyrigProbe::LOADED_AT = Process.clock_gettime(Process::CLOCK_MONOTONIC)

if ENV["RUBYRIG_PROBE_DIR"]
  Process.singleton_class.prepend(RubyrigProbeForkHook) if Process.respond_to?(:_fork)
  RubyrigProbe.extra(:write_boot, ENV["RUBYRIG_PROBE_DIR"]) if ENV["RUBYRIG_PROBE_EARLY"] == "1"
  at_exit do
    RubyrigProbe.write(ENV["RUBYRIG_PROBE_DIR"], RubyrigProbe.report, ".json")
  rescue => e # never change the measured program's exit because of the probe
    warn("rubyrig probe: could not write facts: " + e.message)
  end
end

# Loaded INSIDE the measured Ruby process (with -r or RUBYOPT) to report what really ran: interpreter,
# YJIT, allocator, M:N, GC and memory (RSS, and the Ruby heap's pages). At exit it writes one JSON file
# per process into the directory named by RUBYRIG_PROBE_DIR and never prints to stdout. With
# RUBYRIG_PROBE_EARLY=1 (long-lived servers and workers, which rubyrig may have to kill) it also writes
# the facts known at boot as probe-<pid>.boot.json, so that a process that never reaches its exit is
# still verified. A forked child reports its own GC work since the fork, not its parent's totals.
# Standard library only and old syntax on purpose: it must load on CRuby 2.5 and later and on JRuby
# (test/rubyrig/probe/old_ruby_syntax_test.rb parses it with Ruby 2.5's grammar).
# Every measured process pays for loading this file and for its report (bench/probe-cost counts the
# instructions: loading costs about 57,000 a KB of compiled instructions, and each Ruby operation of the
# report about a thousand), so it holds only what every process runs, and it writes the report as JSON
# text, a member at a time, rather than as a hash handed to an encoder. What only some processes need (a
# general JSON encoder among it) is in extras.rb, loaded at its first use. The report's fields, shared
# with the native probe, are the schema in docs/results-format.md ("Probe report"), which a test holds both to.

# Loaded already, from the instructions the loader read: requiring the source too must not load it twice.
return if defined?(RubyrigProbe::LOADED_AT)

module RubyrigProbe
  # The loader sets it on its first line, so that the probe's cost includes its own load.
  STARTED_AT = Process.clock_gettime(Process::CLOCK_MONOTONIC) unless const_defined?(:STARTED_AT, false)
  PLAIN = /\A[^"\\\x00-\x1f]*\z/

  # Kept when the native probe (native/rubyrig_probe.c) set them before this file loaded.
  @records ||= {}
  @gc_baseline ||= nil

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

    # The facts a process has from its first line on, as the members of a JSON object.
    def boot_members
      env_keys = ENV["RUBYRIG_PROBE_ENV_KEYS"].to_s
      "\"pid\":#{Process.pid},\"ppid\":#{Process.ppid},\"engine\":#{string(RUBY_ENGINE)}," \
        "\"engine_version\":#{string(RUBY_ENGINE_VERSION)},\"ruby_version\":#{string(RUBY_VERSION)}," \
        "\"description\":#{string(RUBY_DESCRIPTION)},\"started_at_monotonic\":#{STARTED_AT},\"yjit_enabled\":#{yjit?}," \
        "\"allocator\":#{string((ENV["RUBYRIG_PROBE_ALLOCATOR"] == "1") ? extra(:allocator) : nil)}," \
        "\"mn_threads_env\":#{string(ENV["RUBY_MN_THREADS"])},\"env\":#{env_keys.empty? ? "{}" : extra(:echoed_env, env_keys)}"
    end

    def yjit?
      defined?(RubyVM::YJIT.enabled?) ? RubyVM::YJIT.enabled? : false
    end

    # The exit report: the boot facts, GC work and memory, then what only some processes have (YJIT's
    # statistics, M:N, the records), then the probe's own cost.
    def report
      began = @exit_began || Process.clock_gettime(Process::CLOCK_MONOTONIC)
      gc = gc_totals
      gc = gc.zip(@gc_baseline).map { |now, base| (now && base) ? now - base : now } if @gc_baseline
      status = read("/proc/self/status")
      text = "{#{boot_members},\"program\":#{string($0.to_s)},\"exited_at_monotonic\":#{began}," \
        "\"gc\":{\"count\":#{number(gc[0])},\"minor_count\":#{number(gc[1])},\"major_count\":#{number(gc[2])}," \
        "\"time_ms\":#{number(gc[3])},\"total_allocated_objects\":#{number(gc[4])}},\"memory\":{\"rss_bytes\":" \
        "#{number(kilobytes(status, "VmRSS:"))},\"hwm_bytes\":#{number(kilobytes(status, "VmHWM:"))}," \
        "\"ruby_heap_bytes\":#{number(gc[5])}#{extra(:pss_member) if ENV["RUBYRIG_PROBE_PSS"] == "1"}},\"threads\":#{Thread.list.size}"
      text << extra(:optional_members, @records) if yjit? || ENV["RUBYRIG_PROBE_MN"] == "1" || !@records.empty?
      # The probe's own cost in this process: loading it (from the loader's first line, or the native
      # probe's load, which loaded this file only when the process needed it), and this report.
      text << ",\"probe_load_s\":#{defined?(NATIVE_LOAD_S) ? NATIVE_LOAD_S : LOADED_AT - STARTED_AT},\"probe_report_s\":#{Process.clock_gettime(Process::CLOCK_MONOTONIC) - began}}"
    end

    # GC's counts and time (since the fork, for a forked child, less its baseline) and the Ruby heap's
    # bytes (its pages: the objects' slots, not what they allocate with malloc); nil where the engine's
    # GC does not say (JRuby).
    def gc_totals
      stat = GC.stat
      page = defined?(GC::INTERNAL_CONSTANTS) && GC::INTERNAL_CONSTANTS[:HEAP_PAGE_SIZE]
      [stat[:count], stat[:minor_gc_count], stat[:major_gc_count], stat[:time], stat[:total_allocated_objects],
        (page && stat[:heap_allocated_pages]) ? page * stat[:heap_allocated_pages] : nil]
    rescue # GC.stat is partial on some engines
      []
    end

    # A string as JSON: a plain one as it is, another escaped by the extras; nil as null.
    def string(text)
      return "null" if text.nil?
      (text.ascii_only? && PLAIN.match?(text)) ? "\"#{text}\"" : extra(:escape, text)
    end

    def number(value)
      value.nil? ? "null" : value
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
    def write(dir, text, suffix)
      File.write(File.join(dir, "probe-" + Process.pid.to_s + suffix), text)
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

# Loaded INSIDE the measured process after the probe when rubyrig asks for diagnostics: GVL wait
# metrics (gvltools), a GVL timeline (gvl-tracing) and a profile (stackprof or vernier). The gems
# come from rubyrig's per-runtime diagnostics directory (RUBYRIG_DIAG_GEM_DIR), put on the load path
# here so that the workload's own Bundler setup is left alone. Results go to files and to the probe,
# never to stdout. Each forked child (Puma workers, servers) gets its own files.
# Standard library plus those gems only; plain syntax, since it runs on every CRuby from 3.1.

module RubyrigDiagnostics
  SAMPLE_INTERVAL_S = 0.05

  class << self
    def setup
      add_gem_paths(ENV["RUBYRIG_DIAG_GEM_DIR"])
      start_gvl_metrics if ENV["RUBYRIG_GVL"] == "1"
      @trace_dir = ENV["RUBYRIG_TRACE_GVL_DIR"]
      @segment = 0
      start_trace if @trace_dir
      @profiler = ENV["RUBYRIG_PROFILE"]
      start_profile if @profiler
    end

    # Makes the diagnostics gems requirable without activating them through RubyGems or Bundler.
    def add_gem_paths(dir)
      return unless dir && defined?(Gem::Specification)
      Dir.glob(File.join(dir, "specifications", "*.gemspec")).each do |file|
        spec = Gem::Specification.load(file)
        $LOAD_PATH.unshift(*spec.full_require_paths) if spec
      end
    end

    # --- GVL wait (gvltools) ---------------------------------------------------------------

    def start_gvl_metrics
      require "gvltools"
      return unless RUBY_ENGINE == "ruby" && RUBY_VERSION >= "3.2"
      GVLTools::GlobalTimer.enable
      GVLTools::LocalTimer.enable
      GVLTools::WaitingThreads.enable
      restart_gvl_counting
    rescue LoadError # gems not installed for this runtime: GVL metrics stay n/a
      @gvl_started_ns = nil
    end

    # Counts from now on: the totals at this moment become the zero, and a new sampler starts.
    def restart_gvl_counting
      @gvl_started_ns = GVLTools::GlobalTimer.monotonic_time
      @gvl_started_at = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      @samples = []
      @sampler_wait_ns = 0
      start_sampler
    end

    # Samples the number of threads waiting for the GVL. The sampler's own waits are subtracted from
    # the total at the end, since it needs the GVL to take each sample.
    def start_sampler
      @sampling = true
      @sampler = Thread.new do
        Thread.current.name = "rubyrig-gvl-sampler"
        while @sampling
          sleep SAMPLE_INTERVAL_S
          @samples << GVLTools::WaitingThreads.count
        end
        @sampler_wait_ns = GVLTools::LocalTimer.monotonic_time
      end
    end

    def stop_gvl_metrics
      return unless @gvl_started_ns
      @sampling = false
      @sampler.wakeup if @sampler.alive?
      @sampler.join(1)
      wait_ns = GVLTools::GlobalTimer.monotonic_time - @gvl_started_ns - @sampler_wait_ns
      wall_s = Process.clock_gettime(Process::CLOCK_MONOTONIC) - @gvl_started_at
      count = @samples.size
      RubyrigProbe.record(:gvl, {
        "wait_s" => [wait_ns, 0].max / 1e9,
        "wall_s" => wall_s,
        "waiting_threads_mean" => (count > 0) ? @samples.sum.to_f / count : nil,
        "waiting_threads_max" => @samples.max,
        "samples" => count
      })
    rescue ThreadError # the sampler died with a forked parent; the totals still stand
      nil
    end

    # --- GVL timeline (gvl-tracing) ----------------------------------------------------------

    def start_trace
      require "gvl-tracing"
      @segment += 1
      GvlTracing.start(File.join(@trace_dir, "gvl-" + Process.pid.to_s + "-" + @segment.to_s + ".json"))
      @tracing = true
    rescue LoadError # gvl-tracing needs CRuby 3.2+; the report says the trace is missing
      @tracing = false
    end

    def stop_trace
      return unless @tracing
      GvlTracing.stop
      @tracing = false
    end

    # --- Profiles (stackprof or vernier) -----------------------------------------------------

    def start_profile
      @profile_dir = ENV.fetch("RUBYRIG_PROFILE_DIR")
      case @profiler
      when "stackprof"
        require "stackprof"
        StackProf.start(mode: :wall, interval: 1000, raw: true)
      when "vernier"
        require "vernier"
        Vernier.start_profile(mode: :wall)
      end
      @profiling = true
    rescue LoadError # the profiler is not available for this runtime; the report says so
      @profiling = false
    end

    def stop_profile
      return unless @profiling
      @profiling = false
      base = File.join(@profile_dir, @profiler + "-" + Process.pid.to_s)
      frames, samples = (@profiler == "stackprof") ? stop_stackprof(base) : stop_vernier(base)
      File.write(base + ".frames.json", RubyrigProbe.extra(:encode, {"profiler" => @profiler, "pid" => Process.pid,
        "samples" => samples, "frames" => frames}))
    end

    def stop_stackprof(base)
      StackProf.stop
      results = StackProf.results
      File.binwrite(base + ".dump", Marshal.dump(results))
      frames = results[:frames].values.map do |f|
        {"name" => f[:name].to_s, "file" => f[:file].to_s, "self" => f[:samples].to_i, "total" => f[:total_samples].to_i}
      end
      [top(frames), results[:samples].to_i]
    end

    def stop_vernier(base)
      result = Vernier.stop_profile
      result.write(out: base + ".json.gz")
      self_counts = Hash.new(0)
      total_counts = Hash.new(0)
      samples = 0
      result.each_sample do |stack, weight|
        samples += weight
        self_counts[stack.leaf_frame.label] += weight
        stack.frames.map(&:label).uniq.each { |label| total_counts[label] += weight }
      end
      frames = total_counts.map { |name, total| {"name" => name, "file" => "", "self" => self_counts[name], "total" => total} }
      [top(frames), samples]
    end

    def top(frames)
      frames.sort_by { |f| -f["total"] }.first(300)
    end

    # --- Lifecycle ---------------------------------------------------------------------------

    def finish
      stop_profile
      stop_trace
      stop_gvl_metrics
    end

    # Around fork: the parent closes its trace segment first so that no buffered event is written
    # twice; both sides then start fresh, and the child restarts its own GVL counters.
    def before_fork
      stop_trace if @tracing
    end

    def after_fork(child)
      start_trace if @trace_dir
      return unless child
      if @gvl_started_ns
        GVLTools::WaitingThreads.disable
        GVLTools::WaitingThreads.enable
        restart_gvl_counting
      end
      restart_profile_in_child if @profiling
    end

    # stackprof's timer is not inherited by fork, so a child starts its own profile (a Puma worker is
    # where the work happens); vernier profiles only the process that started it.
    def restart_profile_in_child
      if @profiler == "stackprof"
        StackProf.stop if StackProf.running?
        StackProf.start(mode: :wall, interval: 1000, raw: true)
      else
        @profiling = false
      end
    end
  end

  # Hooks Process._fork (Ruby 3.1+) so that every fork, whatever calls it, goes through the above.
  module ForkHook
    def _fork
      RubyrigDiagnostics.before_fork
      pid = super
      RubyrigDiagnostics.after_fork(pid == 0)
      pid
    end
  end
end

RubyrigDiagnostics.setup
Process.singleton_class.prepend(RubyrigDiagnostics::ForkHook) if Process.respond_to?(:_fork)
at_exit { RubyrigDiagnostics.finish }

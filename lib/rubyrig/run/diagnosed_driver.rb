# A driver's run wrapped in the batch's diagnostics: sets up GVL metrics (every batch of a runtime that
# supports them, or only its "gvl" diagnostic batch when another runtime cannot), or a trace or a profile
# (only in the cell's diagnostic batch of that kind), runs the driver, then turns the raw files into what
# the report needs: one trace file per process and each thread's time by GVL state, or the profile's
# frame table, in the trial's samples.
require "fileutils"

module Rubyrig
  module Run
    class DiagnosedDriver
      # driver: the kind's driver class; diagnostics: the runtime's Runtimes::Diagnostics, or nil;
      # gvl_apart: GVL metrics in the "gvl" diagnostic batch only, not in measured ones.
      def initialize(driver, batch:, launch:, diagnostics:, experiment:, gvl_apart: false)
        @gvl_apart = gvl_apart
        @driver = driver
        @batch = batch
        @launch = launch
        @diagnostics = diagnostics
        @experiment = experiment
      end

      # The Kinds::DiagnosticsSetup for this batch, or nil when it gathers none.
      def setup(artifacts_dir)
        return nil unless @diagnostics
        setup = {gem_dir: @diagnostics.dir, gvl: @experiment.gvl && @diagnostics.gvl? && (!@gvl_apart || @batch.diagnostic == "gvl")}
        if @batch.diagnostic == "trace" && @diagnostics.supports?("gvl-tracing")
          setup[:trace_dir] = File.join(artifacts_dir, "trace").tap { |d| FileUtils.mkdir_p(d) }
        elsif @batch.diagnostic == "profile" && @diagnostics.supports?(@experiment.profile)
          setup[:profiler] = @experiment.profile
          setup[:profile_dir] = File.join(artifacts_dir, "profile").tap { |d| FileUtils.mkdir_p(d) }
        end
        return nil unless setup[:gvl] || setup[:trace_dir] || setup[:profiler]
        Kinds::DiagnosticsSetup.new(**setup).freeze
      end

      def run(context)
        result = @driver.new(context).run
        case @batch.diagnostic
        when "trace" then collect_trace(context.diagnostics, result)
        when "profile" then collect_profile(context.diagnostics, result)
        end
        result
      end

      private

      def collect_trace(setup, result)
        return with_warning(result, "no GVL trace: #{lacks("gvl-tracing")}") unless setup&.trace_dir
        result.artifacts = result.artifacts + Diagnostics::GvlTrace.new(setup.trace_dir).merge(process_name: process_name)
        threads = Diagnostics::GvlSummary.collect(setup.trace_dir)
        result.samples = result.samples.merge("gvl_threads" => threads) if threads
      end

      def collect_profile(setup, result)
        return with_warning(result, "no profile: #{lacks(@experiment.profile)}") unless setup&.profiler
        summary = Diagnostics::ProfileSummary.collect(setup.profile_dir)
        result.samples = result.samples.merge("profile" => summary) if summary
        result.artifacts = result.artifacts + ["profile"]
      end

      def with_warning(result, text)
        result.warnings = result.warnings + [text]
      end

      def lacks(gem)
        interpreter = @launch.interpreter
        @diagnostics&.problem || "#{gem} does not run on #{interpreter.engine} #{interpreter.version} (it needs CRuby 3.2 or later)"
      end

      # The runtime's full configuration, for the process names in a trace.
      def process_name
        parts = [@launch.runtime.label, @launch.interpreter.description]
        parts << @launch.ruby_flags.join(" ") unless @launch.ruby_flags.empty?
        env = @launch.env.compact.map { |k, v| "#{k}=#{v}" }
        parts << env.join(" ") unless env.empty?
        parts.join(" · ")
      end
    end
  end
end

# What to load into the measured processes of a batch: GVL metrics, a GVL trace, a profile (nil when off),
# and the environment variables that tell the probe's diagnostics so.
module Rubyrig
  module Kinds
    DiagnosticsSetup = Struct.new(:gem_dir, :gvl, :trace_dir, :profiler, :profile_dir, keyword_init: true) do
      def env
        {
          "RUBYRIG_DIAG_GEM_DIR" => gem_dir,
          "RUBYRIG_GVL" => gvl ? "1" : nil,
          "RUBYRIG_TRACE_GVL_DIR" => trace_dir,
          "RUBYRIG_PROFILE" => profiler,
          "RUBYRIG_PROFILE_DIR" => profile_dir
        }
      end
    end
  end
end

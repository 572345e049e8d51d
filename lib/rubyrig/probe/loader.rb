# Loaded first in every measured Ruby (through RUBYOPT): starts the probe's clock, then loads the probe
# from the instructions rubyrig compiled for this interpreter (RUBYRIG_PROBE_ISEQ), a fraction of the
# cost of compiling its source, and from its source otherwise. Old syntax, standard library only: it
# loads on Ruby 2.5 and later. Kept to a few statements: Ruby compiles it from source in every measured
# process, each statement costing tens of thousands of instructions (bench/probe-cost counts them).
unless defined?(RubyrigProbe::LOADED_AT)
  module RubyrigProbe
    STARTED_AT = Process.clock_gettime(Process::CLOCK_MONOTONIC) unless const_defined?(:STARTED_AT, false)
  end
  begin
    RubyVM::InstructionSequence.load_from_binary(File.binread(ENV["RUBYRIG_PROBE_ISEQ"])).eval
  rescue NameError, SystemCallError, RuntimeError, TypeError, ArgumentError # JRuby, none named or missing, another build's
    require File.expand_path("probe.rb", __dir__)
  end
end

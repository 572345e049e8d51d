# Loaded first in every measured Ruby (through RUBYOPT): starts the probe's clock, then loads the probe
# from the instructions rubyrig compiled for this interpreter (RUBYRIG_PROBE_ISEQ), a fraction of the
# cost of compiling its source, and from its source otherwise (JRuby, or a binary another build wrote).
# Old syntax, standard library only: it loads on Ruby 2.5 and later. Kept short: it is compiled from
# source in every measured process (bench/probe-cost counts it).
unless defined?(RubyrigProbe::LOADED_AT)
  module RubyrigProbe
    STARTED_AT = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
  if ENV["RUBYRIG_PROBE_ISEQ"] && defined?(RubyVM::InstructionSequence.load_from_binary)
    begin
      RubyVM::InstructionSequence.load_from_binary(File.binread(ENV["RUBYRIG_PROBE_ISEQ"])).eval
    rescue SystemCallError, RuntimeError, TypeError, ArgumentError # missing, or compiled by another build
      nil
    end
  end
  require File.expand_path("probe.rb", __dir__) unless defined?(RubyrigProbe::LOADED_AT)
end

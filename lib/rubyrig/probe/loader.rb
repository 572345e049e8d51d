# Loaded first in every measured Ruby (through RUBYOPT): loads the probe from the instructions rubyrig
# compiled for this interpreter (RUBYRIG_PROBE_ISEQ), which costs a third of compiling its source, and
# from its source otherwise (JRuby, or a binary another build wrote). Old syntax, standard library only:
# it loads on Ruby 2.5 and later.
rubyrig_probe_path = File.expand_path("probe.rb", File.dirname(__FILE__))
rubyrig_probe_binary = ENV["RUBYRIG_PROBE_ISEQ"]
if rubyrig_probe_binary && defined?(RubyVM::InstructionSequence) &&
    RubyVM::InstructionSequence.respond_to?(:load_from_binary) && File.file?(rubyrig_probe_binary)
  begin
    RubyVM::InstructionSequence.load_from_binary(File.binread(rubyrig_probe_binary)).eval
    $LOADED_FEATURES << rubyrig_probe_path
  rescue RuntimeError, TypeError, ArgumentError # compiled by another build: the source below takes over
    nil
  end
end
require rubyrig_probe_path

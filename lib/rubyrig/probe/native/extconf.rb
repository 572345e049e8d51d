# Writes the Makefile of the probe's native fast path (rubyrig_probe.c) for the interpreter that runs
# it: Runtimes::ProbeNative runs it with each CRuby, then make, in a build directory of its own.
require "mkmf"
create_makefile("rubyrig_probe")

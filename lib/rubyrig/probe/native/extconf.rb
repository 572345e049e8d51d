# Writes the Makefile of the probe's native fast path (rubyrig_probe.c) for the interpreter that runs
# it: Runtimes::ProbeNative runs it with each CRuby, then make, in a build directory of its own. The
# interpreter's description goes into the build (rubyrig_built_for.h), so that another Ruby that
# inherits RUBYOPT (a measured program starting a different CRuby) loads the Ruby probe instead.
require "mkmf"
File.write("rubyrig_built_for.h", "#define RUBYRIG_BUILT_FOR \"#{RUBY_DESCRIPTION.bytes.map { |b| format("\\%03o", b) }.join}\"\n")
create_makefile("rubyrig_probe")

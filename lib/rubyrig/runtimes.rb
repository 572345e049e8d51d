# Namespace for finding, describing, building and equipping Ruby interpreters.
module Rubyrig
  module Runtimes
    autoload :Bundle, "rubyrig/runtimes/bundle"
    autoload :BuildDeps, "rubyrig/runtimes/build_deps"
    autoload :BuildLog, "rubyrig/runtimes/build_log"
    autoload :BuildProgress, "rubyrig/runtimes/build_progress"
    autoload :Builder, "rubyrig/runtimes/builder"
    autoload :Catalog, "rubyrig/runtimes/catalog"
    autoload :DebianControl, "rubyrig/runtimes/debian_control"
    autoload :DebianJruby, "rubyrig/runtimes/debian_jruby"
    autoload :DebianSource, "rubyrig/runtimes/debian_source"
    autoload :Diagnostics, "rubyrig/runtimes/diagnostics"
    autoload :Discovery, "rubyrig/runtimes/discovery"
    autoload :Fingerprint, "rubyrig/runtimes/fingerprint"
    autoload :Interpreter, "rubyrig/runtimes/interpreter"
    autoload :Jemalloc, "rubyrig/runtimes/jemalloc"
    autoload :Launch, "rubyrig/runtimes/launch"
    autoload :PrepareStep, "rubyrig/runtimes/prepare_step"
    autoload :ProbeIseq, "rubyrig/runtimes/probe_iseq"
    autoload :RubyBuild, "rubyrig/runtimes/ruby_build"
    autoload :Shim, "rubyrig/runtimes/shim"
    autoload :TarballSource, "rubyrig/runtimes/tarball_source"
  end
end

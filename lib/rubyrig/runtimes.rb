# Namespace for finding, describing, building and equipping Ruby interpreters.
module Rubyrig
  module Runtimes
    autoload :Bundle, "rubyrig/runtimes/bundle"
    autoload :Builder, "rubyrig/runtimes/builder"
    autoload :Catalog, "rubyrig/runtimes/catalog"
    autoload :Diagnostics, "rubyrig/runtimes/diagnostics"
    autoload :Discovery, "rubyrig/runtimes/discovery"
    autoload :Fingerprint, "rubyrig/runtimes/fingerprint"
    autoload :Interpreter, "rubyrig/runtimes/interpreter"
    autoload :Jemalloc, "rubyrig/runtimes/jemalloc"
    autoload :Launch, "rubyrig/runtimes/launch"
  end
end

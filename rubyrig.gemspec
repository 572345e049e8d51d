# Gem specification for rubyrig: the runtime comparison harness and its CLI.
require_relative "lib/rubyrig/version"

Gem::Specification.new do |spec|
  spec.name = "rubyrig"
  spec.version = Rubyrig::VERSION
  spec.authors = ["rubyrig developers"]
  spec.summary = "Compare Ruby runtimes on your workload, with honest statistics"
  spec.description = "rubyrig runs a script, command, Rack app or job queue under several Ruby " \
    "runtime configurations (version, YJIT, jemalloc, M:N threads, GC settings) and reports " \
    "throughput, latency and memory with confidence intervals, plus the reasons for a slowdown."
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.1"
  spec.files = Dir["lib/**/*", "exe/*", "docs/*", "README.md", "CHANGELOG.md", "LICENSE"]
  spec.bindir = "exe"
  spec.executables = ["rubyrig"]
  spec.require_paths = ["lib"]

  # Loads every constant from the file its name gives; the harness otherwise uses the standard library.
  spec.add_dependency "zeitwerk", "~> 2.6"
end

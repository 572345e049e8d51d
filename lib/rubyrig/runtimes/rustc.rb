# Finds a Rust compiler new enough to build YJIT: rustc on PATH, else the one rustup puts in
# ~/.cargo/bin, with the version it reports.
module Rubyrig
  module Runtimes
    class Rustc
      MIN_VERSION = Gem::Version.new("1.58.0")

      # env: the environment of the build (its PATH and HOME).
      def initialize(env)
        @env = env
      end

      # {path:, version:} of the first rustc found that is new enough, or nil.
      def find
        [Processes::Which.find("rustc", path: @env.fetch("PATH", "")), cargo_path].compact.filter_map do |path|
          out, _err, exit = Processes::Child.capture([path, "--version"], timeout_s: 30)
          number = out[/\d+\.\d+\.\d+/]
          {path: path, version: out.strip} if exit.success? && number && Gem::Version.new(number) >= MIN_VERSION
        end.first
      end

      # rustup's rustc in ~/.cargo/bin, when there is one.
      def cargo_path
        path = File.join(@env.fetch("HOME", Dir.home), ".cargo", "bin", "rustc")
        Processes::Which.executable?(path) ? path : nil
      end
    end
  end
end

# Runs the commands of one interpreter build with their output appended to the build log, reports
# progress while they run, and stops a command's whole process group on failure or Ctrl-C.
require "fileutils"

module Rubyrig
  module Runtimes
    class BuildLog
      attr_reader :path

      # env: overrides for every command (PATH with rustc, RUBYOPT and friends cleared).
      def initialize(path:, progress:, env:)
        @path = path
        @progress = progress
        @env = env
        FileUtils.mkdir_p(File.dirname(path))
      end

      def write(text)
        File.open(@path, "a") { |f| f.puts(text) }
      end

      # Runs argv to completion; raises BuildError with the telling log line when it fails.
      def run(argv, chdir: nil, env: {})
        write("\n$ #{argv.join(" ")}#{"  (in #{chdir})" if chdir}")
        child = Processes::Child.spawn(argv, env: @env.merge(env), chdir: chdir, out: [@path, "a"], err: [@path, "a"])
        @progress.waiting(last_line) until child.wait(timeout_s: 1.0)
        exit = child.wait
        return if exit.success?
        raise BuildError, "`#{argv.first(2).join(" ")}` #{exit.describe}: #{telling_line}; full log: #{@path}"
      ensure
        child&.stop
      end

      def last_line = tail_lines(1).first

      # The last line that names an error, or the last line when none does.
      def telling_line
        lines = tail_lines(200)
        error = lines.reverse.find { |l| l.match?(/\berror\b|\bfailed\b|cannot|not found/i) && !l.start_with?("make") }
        (error || lines.last).to_s.strip[0, 240]
      end

      def tail_lines(count)
        return [] unless File.exist?(@path)
        File.open(@path) do |f|
          f.seek([f.size - 32_768, 0].max)
          f.read.scrub.lines.map(&:chomp).reject { |l| l.strip.empty? }.last(count)
        end
      end
    end
  end
end

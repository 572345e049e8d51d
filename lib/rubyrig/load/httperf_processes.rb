# Runs several httperf processes together for a fixed time, for both httperf adapters. They start
# together: each is spawned as `flock --shared --no-fork GATE httperf ...` while rubyrig holds GATE
# exclusively, and all exec httperf when it lets go, so that slow forks on a busy host do not stagger
# them. After duration_s each gets SIGINT, on which httperf prints its statistics; each process's output
# is kept in <label>-N.log and read with HttperfOutput. Every process is stopped in any case, so that
# Ctrl-C never leaves one.
require "fileutils"

module Rubyrig
  module Load
    class HttperfProcesses
      # Beyond the request timeout, how long httperf may take to print its statistics after SIGINT.
      GRACE_S = 15

      # What the processes measured: their summaries (HttperfOutput.summary) and exits (rusage).
      Outcome = Struct.new(:summaries, :exits, keyword_init: true) do
        def cpu_s = exits.sum { |e| e.cpu_user_s + e.cpu_sys_s }

        def wall_s = exits.map(&:wall_s).max
      end

      # argvs: one httperf command line per process; cpus: one CPU list per process (or nil each).
      def initialize(argvs, cpus:, timeout_s:)
        @argvs = argvs
        @cpus = cpus
        @timeout_s = timeout_s
      end

      def run(duration_s:, dir:, label:)
        logs = Array.new(@argvs.size) { |i| File.join(dir, "#{label}-#{i + 1}.log") }
        gate = File.join(dir, "#{label}.gate")
        children = []
        start(gate, logs, children)
        sleep duration_s
        children.each { |c| c.signal_group("INT") }
        exits = children.zip(logs).map { |child, log| finished(child, log) }
        Outcome.new(summaries: logs.map { |log| summary_of(log) }, exits: exits)
      ensure
        children.each(&:stop)
        FileUtils.rm_f(gate) if gate
      end

      private

      def start(gate, logs, children)
        File.open(gate, File::CREAT | File::RDWR) do |lock|
          lock.flock(File::LOCK_EX)
          @argvs.each_with_index do |argv, i|
            children << Processes::Child.spawn(["flock", "--shared", "--no-fork", gate, *argv], env: Processes::InheritedEnv.withheld,
              cpus: @cpus[i], out: logs[i], err: [:child, :out])
          end
        end
      end

      def finished(child, log)
        exit = child.wait(timeout_s: @timeout_s + GRACE_S)
        raise Httperf::RunFailed, "httperf did not stop within #{@timeout_s + GRACE_S} s of SIGINT; see #{log}" unless exit
        raise Httperf::RunFailed, "httperf #{exit.describe}#{Load.said(log)} (see #{log})" unless exit.success?
        exit
      end

      def summary_of(log)
        HttperfOutput.summary(Processes::TextFile.read(log))
      rescue HttperfOutput::Missing
        raise Httperf::RunFailed, "httperf printed no statistics: #{Processes::TextFile.tail(log, chars: 200)} (see #{log})"
      end
    end
  end
end

# Facts about the machine a run happens on: CPU, cores, kernel, governor, turbo, memory and load. The
# fingerprint says whether two runs may be compared at all.
require "etc"
require "digest"

module Rubyrig
  module Processes
    class Host
      def initialize(root: "/")
        @root = root
      end

      def facts
        cpu = cpu_model
        {
          "hostname" => Etc.uname[:nodename],
          "cpu_model" => cpu,
          "cores" => Etc.nprocessors,
          "kernel" => read("proc/sys/kernel/osrelease")&.strip,
          "governor" => governor,
          "turbo" => turbo,
          "memory_bytes" => meminfo("MemTotal"),
          "load_average" => load_average,
          "fingerprint" => Digest::SHA256.hexdigest([Etc.uname[:nodename], cpu, Etc.nprocessors].join("|"))[0, 16]
        }
      end

      # The 1, 5 and 15 minute load averages.
      def load_average
        read("proc/loadavg").to_s.split.first(3).map(&:to_f)
      end

      # True when the 1-minute load is above half the cores: other work is competing for the CPUs.
      def busy?(load = load_average)
        !load.empty? && load.first > Etc.nprocessors * 0.5
      end

      def cpu_model
        read("proc/cpuinfo").to_s[/^model name\s*:\s*(.+)$/, 1]&.strip || "unknown"
      end

      # The cpufreq governor of CPU 0, or "unavailable" (virtual machines often expose none).
      def governor
        read("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")&.strip || "unavailable"
      end

      # "on", "off" or "unavailable", from intel_pstate or the generic cpufreq boost switch.
      def turbo
        no_turbo = read("sys/devices/system/cpu/intel_pstate/no_turbo")
        return ((no_turbo.strip == "1") ? "off" : "on") if no_turbo
        boost = read("sys/devices/system/cpu/cpufreq/boost")
        return ((boost.strip == "1") ? "on" : "off") if boost
        "unavailable"
      end

      private

      def meminfo(field)
        kb = read("proc/meminfo").to_s[/^#{field}:\s+(\d+) kB/, 1]
        kb && kb.to_i * 1024
      end

      def read(relative)
        File.read(File.join(@root, relative))
      rescue SystemCallError # the file does not exist on this kernel or in this container
        nil
      end
    end
  end
end

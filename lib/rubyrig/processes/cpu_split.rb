# Which CPUs the app server and the load generator get, so that they do not compete for the same
# cores: by default the load generator gets the first allowed CPU and the server all the others. A
# list given by the user is kept as it is; overlapping lists are allowed but warned about.
require "etc"

module Rubyrig
  module Processes
    CpuSplit = Struct.new(:server, :load, :warnings, keyword_init: true) do
      # The CPUs this process may run on (its affinity list), else 0..nprocessors-1.
      def self.allowed(status_path: "/proc/self/status")
        list = File.read(status_path)[/^Cpus_allowed_list:\s*(\S+)/, 1]
        list ? CpuList.parse(list) : (0...Etc.nprocessors).to_a
      rescue SystemCallError # no /proc: assume every CPU
        (0...Etc.nprocessors).to_a
      end

      def self.resolve(server: nil, load: nil, allowed: self.allowed)
        warnings = []
        if server.nil? && load.nil? && allowed.size < 2
          warnings << "only one CPU is available, so the server and the load generator share it; throughput is understated"
          return new(server: nil, load: nil, warnings: warnings.freeze).freeze
        end
        load_cpus = load ? CpuList.parse(load) : nil
        server_cpus = server ? CpuList.parse(server) : nil
        server_cpus ||= allowed - (load_cpus || [allowed.first])
        server_cpus = allowed if server_cpus.empty?
        load_cpus ||= (allowed - server_cpus).first(1)
        load_cpus = allowed.first(1) if load_cpus.empty?
        shared = server_cpus & load_cpus
        unless shared.empty?
          warnings << "the server (CPUs #{CpuList.format(server_cpus)}) and the load generator (CPUs #{CpuList.format(load_cpus)}) share CPU #{CpuList.format(shared)}; they compete, so throughput is understated"
        end
        new(server: CpuList.format(server_cpus), load: CpuList.format(load_cpus), warnings: warnings.freeze).freeze
      end

      def server_count = server ? CpuList.parse(server).size : Etc.nprocessors

      def load_count = load ? CpuList.parse(load).size : Etc.nprocessors

      def to_h = {"server_cpus" => server, "load_cpus" => load}
    end
  end
end

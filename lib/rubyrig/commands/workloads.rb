# `rubyrig workloads`: lists the built-in workloads with their parameters and defaults.
module Rubyrig
  module Commands
    class Workloads < Base
      def call
        Experiment::Builtins.names.each do |name|
          b = Experiment::Builtins.fetch(name)
          params = b.params.map { |k, v| "#{k}=#{Array(v).join(",")}" }.join(" ")
          out.puts("#{b.workload_name.ljust(28)} #{b.kind.ljust(7)} #{b.description}")
          out.puts("#{" " * 37}defaults: #{params}#{" iterations=#{b.iterations}" if b.iterations}#{" warmup=#{b.warmup}" if b.warmup}") unless params.empty?
        end
        CLI::EXIT_OK
      end
    end
  end
end

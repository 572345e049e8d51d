# The one CPU-list type of rubyrig ("1", "0-1", "0,2-3"), for --cpus, --server-cpus, --load-cpus and the
# experiment keys: whether a text is one, the CPUs it names, and the text for a set of CPUs.
module Rubyrig
  module Processes
    module CpuList
      PATTERN = /\A\d+(-\d+)?(,\d+(-\d+)?)*\z/

      module_function

      # A list such as "0-2,5"; every range runs upwards.
      def valid?(text)
        text = text.to_s
        return false unless text.match?(PATTERN)
        text.split(",").all? { |part| part.split("-").map { |n| Integer(n, 10) }.then { |a, b| b.nil? || a <= b } }
      end

      # "0-2,5" => [0, 1, 2, 5]
      def parse(text)
        text.to_s.split(",").flat_map do |part|
          first, last = part.split("-").map { |n| Integer(n, 10) }
          (first..(last || first)).to_a
        end.uniq.sort
      end

      # [0, 1, 2, 5] => "0-2,5"
      def format(cpus)
        cpus.sort.slice_when { |a, b| b != a + 1 }.map { |run| (run.size > 1) ? "#{run.first}-#{run.last}" : run.first.to_s }.join(",")
      end

      # The message for a value that is not a CPU list.
      def problem(value) = "needs a CPU list such as 1, 0-1 or 0,2-3, got #{value.to_s.inspect}"
    end
  end
end

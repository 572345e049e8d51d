# The outcome of one batch as a kind's driver returns it, before the batch stamps ids and times on it.
# status: a Trial status; reason: why it failed (nil when it did not); metrics: name => number, each
# named in Metrics.catalogue; artifacts: files and folders in the batch's artifacts directory, by
# relative path; items: the measured items of a file that holds several (benchmark-ips reports), each
# {"item", "metrics", "samples"}, or nil.
module Rubyrig
  module Kinds
    Result = Struct.new(:status, :reason, :metrics, :facts, :samples, :artifacts, :warnings, :items, keyword_init: true) do
      def self.failed(reason, **rest) = new(status: Results::Trial::FAILED, reason: reason, metrics: {}, facts: {}, samples: {},
        artifacts: [], warnings: [], **rest)
    end
  end
end

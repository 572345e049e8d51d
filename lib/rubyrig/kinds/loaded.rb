# What a kind makes of a workload entry (Contract#load): the target (a path, an argv...), the kind's
# options, the name and Gemfile the workload gets when the entry gives none (nil: none), and the
# parameters the kind sets over the entry's (a ruby-bench category expanded into its benchmarks; nil: none).
module Rubyrig
  module Kinds
    Loaded = Struct.new(:target, :options, :name, :gemfile, :params, keyword_init: true)
  end
end

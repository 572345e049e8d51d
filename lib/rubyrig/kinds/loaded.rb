# What a kind makes of a workload entry (Contract#load): the target (a path, an argv...), the kind's
# options, and the name and Gemfile the workload gets when the entry gives none (nil: none).
module Rubyrig
  module Kinds
    Loaded = Struct.new(:target, :options, :name, :gemfile, keyword_init: true)
  end
end

# The pictures of the HTML report, one module per kind; each draws an Analysis::Figures plot as inline
# SVG (with HTML around it where text must wrap) and computes nothing but pixel positions.
module Rubyrig
  module Reporters
    module Charts
      autoload :Distribution, "rubyrig/reporters/charts/distribution"
      autoload :Errors, "rubyrig/reporters/charts/errors"
      autoload :Forest, "rubyrig/reporters/charts/forest"
      autoload :Grid, "rubyrig/reporters/charts/grid"
      autoload :Gvl, "rubyrig/reporters/charts/gvl"
      autoload :Jobs, "rubyrig/reporters/charts/jobs"
      autoload :Latency, "rubyrig/reporters/charts/latency"
      autoload :MemorySpeed, "rubyrig/reporters/charts/memory_speed"
      autoload :Profile, "rubyrig/reporters/charts/profile"
      autoload :Sweep, "rubyrig/reporters/charts/sweep"
    end
  end
end

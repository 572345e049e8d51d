# The pictures of the HTML report, one module per kind; each draws an Analysis::Figures plot as inline
# SVG (with HTML around it where text must wrap) and computes nothing but pixel positions.
module Rubyrig
  module Reporters
    module Charts
    end
  end
end

# One concrete request to send (its placeholders filled): what a load generator's file holds, with the
# name of the endpoint it belongs to.
module Rubyrig
  module Kinds
    module Http
      class Traffic
        Call = Struct.new(:name, :method, :path, :headers, :body, keyword_init: true)
      end
    end
  end
end

# A session's pause between two of its requests (think_s, in seconds).
module Rubyrig
  module Kinds
    module Http
      class Traffic
        Pause = Struct.new(:think_s, keyword_init: true)
      end
    end
  end
end

# The app's one action: the same static string as builtin:rack-hello, through the full controller stack.
class HelloController < ActionController::Base
  def index
    render plain: "Hello, world!\n"
  end
end

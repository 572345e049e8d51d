# The smallest useful Rack app: every request gets the same static string.
BODY = "Hello, world!\n".freeze
HEADERS = {"content-type" => "text/plain", "content-length" => BODY.bytesize.to_s}.freeze

run(lambda { |_env| [200, HEADERS.dup, [BODY]] })

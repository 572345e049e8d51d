# Built-in workload: `calls` File.mtime calls split evenly over `threads` threads (seed 000, Ruby bug #20816).
threads = Rubyrig.param("threads", 4)
calls = Rubyrig.param("calls", 20_000)
per_thread = calls / threads
path = __FILE__

Rubyrig.bench do
  Array.new(threads) { Thread.new { per_thread.times { File.mtime(path) } } }.each(&:join)
end

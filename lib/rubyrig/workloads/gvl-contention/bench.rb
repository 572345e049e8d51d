# Built-in workload: `threads` threads each add 1 to a local counter `increments / threads` times.
threads = Rubyrig.param("threads", 4)
increments = Rubyrig.param("increments", 2_000_000)
per_thread = increments / threads

Rubyrig.bench do
  Array.new(threads) do
    Thread.new do
      counter = 0
      i = 0
      while i < per_thread
        counter += 1
        i += 1
      end
      counter
    end
  end.each(&:join)
end

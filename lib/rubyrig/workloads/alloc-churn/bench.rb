# Built-in workload: allocation-heavy churn that stresses the GC and the malloc implementation.
objects = Rubyrig.param("objects", 200_000)
retained = Rubyrig.param("retained", 20_000)

Rubyrig.bench do
  window = Array.new(retained)
  objects.times do |i|
    record = {id: i, name: "item-#{i}", tags: ["a" * (i % 64), "b" * (i % 17)], score: i * 0.5}
    window[i % retained] = record
  end
  window.size
end

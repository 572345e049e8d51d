require "test_helper"

class GvlTraceTest < Minitest::Test
  def segment(pid, events, closed: true)
    lines = events.map { |e| "  #{JSON.generate(e)}" }
    closed ? "[\n#{lines.join(",\n")}\n]\n" : "[\n#{lines.map { |l| "#{l},\n" }.join}"
  end

  def test_segments_of_a_process_become_one_named_file
    dir = tmpdir
    name = {"ph" => "M", "pid" => 7, "name" => "process_name", "args" => {"name" => "Ruby threads view (3.3.8)"}}
    write(dir, "gvl-7-1.json", segment(7, [name, {"ph" => "B", "pid" => 7, "tid" => 1, "ts" => 1.0, "name" => "running"}]))
    write(dir, "gvl-7-2.json", segment(7, [name, {"ph" => "E", "pid" => 7, "tid" => 1, "ts" => 2.0}], closed: false))
    write(dir, "gvl-9-2.json", segment(9, [{"ph" => "B", "pid" => 9, "tid" => 3, "ts" => 1.5, "name" => "wants_gvl"}]))
    files = Rubyrig::Diagnostics::GvlTrace.new(dir).merge(process_name: "3.3.8+mn · ruby 3.3.8")
    assert_equal ["trace/gvl-7.json", "trace/gvl-9.json"], files
    events = JSON.parse(Rubyrig::Processes::TextFile.read(File.join(dir, "gvl-7.json")))
    names = events.select { |e| e["name"] == "process_name" }
    assert_equal [{"ph" => "M", "pid" => 7, "name" => "process_name", "args" => {"name" => "3.3.8+mn · ruby 3.3.8 (pid 7)"}}], names
    assert_equal %w[B E], events.reject { |e| e["ph"] == "M" }.map { |e| e["ph"] }, "segments in order, the unclosed one repaired"
    assert_equal ["gvl-7.json", "gvl-9.json"], Dir.children(dir).sort
  end
end

# docs/history-format.md is true: its version is the code's, and its table of the run record lists
# exactly the fields a record has, with the nested keys each row names.
require "test_helper"
require "support/history_runs"

class HistoryFormatDocTest < Minitest::Test
  include RubyrigTest
  include HistoryRuns

  DOC = Rubyrig::Processes::TextFile.read(File.join(RubyrigTest::ROOT, "docs", "history-format.md"))
  ROWS = DOC[/^## Run record.*?(?=^## )/m].scan(/^\| `(\w+)` \| \w+ \| (.*) \|$/).to_h

  def test_the_version_is_the_codes
    assert DOC.start_with?("# History format (version #{Rubyrig::History::RunRecord::FORMAT_VERSION})\n"), DOC.lines.first
    assert_equal Rubyrig::History::RunRecord::FORMAT_VERSION, Rubyrig::History::Store::FORMAT_VERSION
  end

  def test_the_table_lists_every_field_of_a_record_and_its_keys
    root = tmpdir
    run = write_history_run(File.join(root, "r"), created_at: "2026-11-01T10:00:00Z", values: {"system" => [1.0, 2.0]},
      revision: {"commit" => "a" * 40, "dirty" => false})
    history = Rubyrig::History::Store.new(File.join(root, "h"))
    history.add(run)
    record = history.records.first
    assert_equal ROWS.keys.sort, record.keys.sort
    nested = {"run" => record["run"], "hosts" => record["hosts"].values.first, "runtimes" => record["runtimes"].values.first,
              "workloads" => record["workloads"].values.first, "metrics" => record["metrics"].values.first, "cells" => record["cells"].first}
    nested.each do |field, entry|
      entry.each_key { |key| assert_includes ROWS.fetch(field), "`#{key}`", "#{field}: #{key}" }
    end
  end
end

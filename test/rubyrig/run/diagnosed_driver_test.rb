require "test_helper"

# Where GVL metrics are gathered: every batch of a runtime that carries them, or, in a run where some
# runtime cannot (gvl_apart), only its "gvl" diagnostic batch.
class DiagnosedDriverTest < Minitest::Test
  Diagnostics = Struct.new(:dir, :gvl, keyword_init: true) do
    def gvl? = gvl

    def supports?(_gem) = false
  end
  Settings = Struct.new(:gvl, :trace, :profile, keyword_init: true)

  def setup_for(diagnostic, gvl_apart:)
    cell = Rubyrig::Experiment::Cell.new(index: 0, runtime: "3.3", workload: "w", params: {})
    batch = Rubyrig::Experiment::Plan::Batch.new(id: "c0-b1", cell: cell, number: 1, round: 1, diagnostic: diagnostic)
    Rubyrig::Run::DiagnosedDriver.new(nil, batch: batch, launch: nil, diagnostics: Diagnostics.new(dir: "/gems", gvl: true),
      experiment: Settings.new(gvl: true), gvl_apart: gvl_apart).setup(Dir.tmpdir)
  end

  def test_gvl_metrics_in_every_batch_unless_measured_apart
    assert setup_for(nil, gvl_apart: false).gvl
    assert_nil setup_for(nil, gvl_apart: true), "a measured batch carries no hooks when they are measured apart"
    assert setup_for("gvl", gvl_apart: true).gvl
  end
end

# Tests the gem-set rows a report shows per runtime: the gems each resolved, how an app's lockfile was
# used, and the warning for a runtime that needed its own resolution.
require "test_helper"

class GemSetsTest < Minitest::Test
  GemSets = Rubyrig::Analysis::GemSets

  def rows
    run = Rubyrig::Results::RunMeta.new("bundles" => [
      {"runtime" => "3.3.8", "gemfile" => "/w/sidekiq-noop/Gemfile", "lockfile_sha256" => "a" * 64, "gems" => {"sidekiq" => "8.1.7"}},
      {"runtime" => "jruby-9.4", "gemfile" => "/app/Gemfile", "lockfile_sha256" => "b" * 64, "source_lockfile" => "/app/Gemfile.lock",
       "source_lockfile_sha256" => "c" * 64, "resolution" => "re-resolved", "resolution_reason" => "platform java is missing",
       "gems" => {"sidekiq" => "7.3.10", "puma" => "6.6.0"}},
      {"runtime" => "system", "gemfile" => "/app/Gemfile", "lockfile_sha256" => "c" * 64, "source_lockfile" => "/app/Gemfile.lock",
       "source_lockfile_sha256" => "c" * 64, "resolution" => "as-is"}
    ])
    GemSets.of(run)
  end

  def test_rows_say_which_gems_and_how_the_lockfile_was_used
    own, re_resolved, as_is = rows
    assert_equal "sidekiq 8.1.7", own.gems_text
    assert_equal "its own lockfile (sha256 aaaaaaaaaaaa)", own.lockfile_text
    assert_equal "sidekiq 7.3.10, puma 6.6.0", re_resolved.gems_text
    assert_equal "its own resolution (sha256 bbbbbbbbbbbb), not the app's Gemfile.lock (sha256 cccccccccccc): platform java is missing",
      re_resolved.lockfile_text
    assert_equal "the app's Gemfile.lock as it is (sha256 cccccccccccc)", as_is.lockfile_text
    assert_equal "", as_is.gems_text
  end

  def test_only_a_re_resolved_gem_set_warns
    warnings = GemSets.warnings(rows)
    assert_equal 1, warnings.size
    assert_match(%r{\Ajruby-9\.4 did not use /app/Gemfile\.lock as it is \(platform java is missing\); .*lockfile sha256 bbbbbbbbbbbb, the app's cccccccccccc}, warnings.first)
  end

  def test_a_gem_set_that_only_added_puma_and_kept_the_apps_versions_does_not_warn
    bundle = {"runtime" => "3.3.8", "gemfile" => "/app/Gemfile", "lockfile_sha256" => "b" * 64, "source_lockfile" => "/app/Gemfile.lock",
              "source_lockfile_sha256" => "c" * 64, "resolution" => "re-resolved",
              "resolution_reason" => "rubyrig added puma, which the app's bundle lacks; the app's locked versions are kept", "added_only" => true}
    assert_empty GemSets.warnings(GemSets.of(Rubyrig::Results::RunMeta.new("bundles" => [bundle])))
    changed = bundle.merge("resolution_reason" => "rubyrig added puma, which the app's bundle lacks; bundler changed the app's rack 3.1.0 to 3.2.8")
    assert_equal 1, GemSets.warnings(GemSets.of(Rubyrig::Results::RunMeta.new("bundles" => [changed.except("added_only")]))).size
  end

  def test_runs_without_bundles_have_no_rows
    assert_empty GemSets.of(Rubyrig::Results::RunMeta.new({}))
  end
end

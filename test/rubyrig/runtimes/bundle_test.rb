# Tests what a gem set reports about itself without installing anything: the notable gems of its
# lockfile (one version per gem, however many platforms it is locked for) and the app's own lockfile.
require "test_helper"
require "digest"

class BundleTest < Minitest::Test
  def bundle(dir)
    interpreter = Rubyrig::Runtimes::Interpreter.new(name: "system", path: RbConfig.ruby, fingerprint: "fp")
    Rubyrig::Runtimes::Bundle.new(cache_dir: File.join(dir, "cache"), interpreter: interpreter, gemfile: File.join(dir, "app", "Gemfile"))
  end

  def test_notable_gems_once_each_without_their_platforms
    dir = tmpdir
    write(dir, "app/Gemfile", "gem 'rails'\n")
    b = bundle(dir)
    FileUtils.mkdir_p(b.dir)
    File.write(b.lockfile, <<~LOCK)
      GEM
        remote: https://rubygems.org/
        specs:
          nokogiri (1.19.7-x86_64-linux-gnu)
            racc (~> 1.4)
          puma (8.0.2)
            nio4r (~> 2.0)
          sqlite3 (2.10.2-aarch64-linux-gnu)
          sqlite3 (2.10.2-x86_64-linux-gnu)
          sqlite3 (2.10.2-x86_64-linux-musl)
          railties (7.2.4)
            actionpack (= 7.2.4)
    LOCK
    assert_equal({"sqlite3" => "2.10.2", "railties" => "7.2.4", "puma" => "8.0.2"}, b.gems.sort.to_h.slice("sqlite3", "railties", "puma"))
    assert_equal %w[puma railties sqlite3], b.gems.keys.sort, "only the notable gems, not nokogiri or the dependency lines"
    assert_nil b.source_lockfile
    write(dir, "app/Gemfile.lock", "GEM\n")
    assert_equal File.join(dir, "app", "Gemfile.lock"), b.source_lockfile
    assert_equal Digest::SHA256.hexdigest("GEM\n"), b.to_h["source_lockfile_sha256"]
  end
end

# Tests what a gem set reports about itself without installing anything: the notable gems of its
# lockfile (one version per gem, however many platforms it is locked for) and the app's own lockfile.
require "test_helper"
require "digest"

class BundleTest < Minitest::Test
  def bundle(dir, required_gems: [])
    interpreter = Rubyrig::Runtimes::Interpreter.new(name: "system", path: RbConfig.ruby, fingerprint: "fp")
    Rubyrig::Runtimes::Bundle.new(cache_dir: File.join(dir, "cache"), interpreter: interpreter, gemfile: File.join(dir, "app", "Gemfile"),
      required_gems: required_gems)
  end

  LOCK_WITH_PUMA_AS_A_DEPENDENCY = <<~LOCK
    GEM
      remote: https://rubygems.org/
      specs:
        nio4r (2.7.4)
        puma (6.6.0)
          nio4r (~> 2.0)
        rack (3.2.8)

    PLATFORMS
      x86_64-linux

    DEPENDENCIES
      my-server
      rack
  LOCK

  def test_added_gems_are_the_required_ones_the_apps_lockfile_does_not_lock
    dir = tmpdir
    write(dir, "app/Gemfile", "gem 'rack'\n")
    write(dir, "app/Gemfile.lock", LOCK_WITH_PUMA_AS_A_DEPENDENCY.sub(/^    puma \(6\.6\.0\)\n      nio4r.*\n/, ""))
    assert_equal %w[puma], bundle(dir, required_gems: %w[puma]).added_gems
    assert_equal %w[puma], bundle(dir, required_gems: %w[puma]).to_h["added_gems"]
    assert_equal [], bundle(dir, required_gems: %w[rack]).added_gems, "a locked gem is the app's own"
    assert_equal [], bundle(dir, required_gems: %w[nio4r]).added_gems

    write(dir, "app/Gemfile.lock", LOCK_WITH_PUMA_AS_A_DEPENDENCY)
    assert_equal [], bundle(dir, required_gems: %w[puma]).added_gems, "locked as another gem's dependency, though the Gemfile never names it"
    refute bundle(dir, required_gems: %w[puma]).to_h.key?("added_gems")
  end

  def test_added_gems_without_a_lockfile_are_the_required_ones_the_gemfile_does_not_name
    dir = tmpdir
    write(dir, "app/Gemfile", "source \"https://rubygems.org\"\ngem 'rack'\n# gem \"puma\"\ngem \"puma-status\"\n")
    assert_equal %w[puma], bundle(dir, required_gems: %w[puma]).added_gems, "neither a comment nor a gem whose name starts alike"
    write(dir, "app/Gemfile", "gem 'rack'\ngroup :production do\n  gem \"puma\", \"~> 6.0\"\nend\n")
    assert_equal [], bundle(dir, required_gems: %w[puma]).added_gems
  end

  def test_checkouts_of_the_same_gemfile_and_lockfile_share_their_installed_gems_but_not_their_gemfile
    first, second = tmpdir, tmpdir
    [first, second].each { |dir| write(dir, "app/Gemfile", "gem 'rack'\n") && write(dir, "app/Gemfile.lock", "GEM\n") }
    a, b = bundle(first), bundle(second)
    refute_equal a.dir, b.dir, "each gem set's Gemfile evaluates its own app's"
    assert_equal a.vendor_dir.sub(first, ""), b.vendor_dir.sub(second, ""), "the same installed gems (cache dirs aside)"
    assert_equal File.join(first, "cache", "bundles", "fp", "gems"), File.dirname(a.vendor_dir)
    write(second, "app/Gemfile.lock", "GEM\n  specs:\n")
    refute_equal a.vendor_dir.sub(first, ""), bundle(second).vendor_dir.sub(second, ""), "another lockfile, other gems"
    refute_equal a.vendor_dir, bundle(first, required_gems: %w[puma]).vendor_dir, "other gems when puma is added"
  end

  def test_a_gemfile_with_gems_from_its_folder_keeps_its_installed_gems_to_itself
    ["gemspec\n", "gem 'mine', path: 'vendor/mine'\n", "gem \"mine\", :path => \"../mine\"\n", "path 'engines' do\n  gem 'x'\nend\n"].each do |gemfile|
      dir = tmpdir
      write(dir, "app/Gemfile", gemfile)
      assert_equal File.join(bundle(dir).dir, "vendor"), bundle(dir).vendor_dir, gemfile
    end
    dir = tmpdir
    write(dir, "app/Gemfile", "gem 'rack'\n")
    write(dir, "app/Gemfile.lock", "PATH\n  remote: .\n  specs:\n    mine (0.1.0)\n")
    assert_equal File.join(bundle(dir).dir, "vendor"), bundle(dir).vendor_dir, "a PATH source in the lockfile"
  end

  def test_a_gem_set_installed_before_the_gems_were_shared_keeps_its_own
    dir = tmpdir
    write(dir, "app/Gemfile", "gem 'rack'\n")
    refute_equal File.join(bundle(dir).dir, "vendor"), bundle(dir).vendor_dir
    FileUtils.mkdir_p(File.join(bundle(dir).dir, "vendor"))
    assert_equal File.join(bundle(dir).dir, "vendor"), bundle(dir).vendor_dir
  end

  def test_a_gem_set_whose_gems_folder_is_gone_is_not_installed
    dir = tmpdir
    write(dir, "app/Gemfile", "gem 'rack'\n")
    set = bundle(dir)
    FileUtils.mkdir_p(set.dir)
    File.write(set.lockfile, "GEM\n")
    File.write(File.join(set.dir, Rubyrig::Runtimes::Bundle::MARKER), JSON.generate("gemfile" => "gem 'rack'\n", "source_lockfile_sha256" => nil))
    refute bundle(dir).installed?, "its shared gems folder was never filled"
    FileUtils.mkdir_p(set.vendor_dir)
    assert bundle(dir).installed?
  end

  def test_a_gem_set_with_added_gems_is_another_one
    dir = tmpdir
    write(dir, "app/Gemfile", "gem 'rack'\n")
    refute_equal bundle(dir).dir, bundle(dir, required_gems: %w[puma]).dir
    assert_equal bundle(dir).dir, bundle(dir, required_gems: %w[rack]).dir, "nothing added, the same gem set"
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

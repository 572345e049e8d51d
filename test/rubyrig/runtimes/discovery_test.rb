require "test_helper"

class DiscoveryTest < Minitest::Test
  def install_fake(root, *parts)
    bin = File.join(root, *parts, "bin")
    FileUtils.mkdir_p(bin)
    File.symlink(RbConfig.ruby, File.join(bin, "ruby"))
    File.join(bin, "ruby")
  end

  def test_finds_path_and_version_manager_rubies
    home = tmpdir
    cache = tmpdir
    rbenv = install_fake(home, ".rbenv", "versions", "3.1.2-rbenv")
    chruby = install_fake(home, ".rubies", "ruby-3.1.2-chruby")
    built = install_fake(cache, "rubies", "3.1.2-built")
    env = {"HOME" => home, "PATH" => File.dirname(RbConfig.ruby)}
    candidates = Rubyrig::Runtimes::Discovery.new(env: env, cache_dir: cache).candidates
    assert_equal "system", candidates.first.name
    # All four point at the same binary, so only the first one found is kept.
    assert_equal 1, candidates.count { |c| File.realpath(c.path) == File.realpath(RbConfig.ruby) }
    env_without_system = {"HOME" => home, "PATH" => "/nonexistent"}
    found = Rubyrig::Runtimes::Discovery.new(env: env_without_system, cache_dir: cache).candidates
    assert_equal [["3.1.2-built", "rubyrig", built]], found.map { |c| [c.name, c.source, c.path] }
    refute_nil rbenv
    refute_nil chruby
  end

  def test_roots_cover_the_usual_managers
    roots = Rubyrig::Runtimes::Discovery.new(env: {"HOME" => "/h"}, cache_dir: "/c").roots.map(&:first).uniq
    assert_equal %w[rubyrig rbenv asdf mise chruby rvm], roots
  end
end

require "test_helper"

class TarballSourceTest < Minitest::Test
  TarballSource = Rubyrig::Runtimes::TarballSource

  def test_names_the_bundled_gems_a_source_tree_lacks
    dir = tmpdir
    write(dir, "gems/bundled_gems", "# name version url\nminitest 5.20.0 https://x\n\nrake 13.1.0 https://y\n")
    write(dir, "gems/rake-13.1.0.gem", "")
    assert_equal ["gems/minitest-5.20.0.gem"], TarballSource.missing_bundled_gems(dir)
  end

  def test_a_tree_without_a_bundled_gems_list_lacks_nothing
    assert_empty TarballSource.missing_bundled_gems(tmpdir)
  end

  def test_a_missing_tarball_is_a_one_line_error
    error = assert_raises(Rubyrig::BuildError) { TarballSource.new(path: "/nonexistent/ruby.tar.gz", log: nil, progress: nil) }
    assert_match(/does not exist; give the path/, error.message)
  end
end

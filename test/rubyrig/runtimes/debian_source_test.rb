require "test_helper"

class DebianSourceUnitTest < Minitest::Test
  DebianSource = Rubyrig::Runtimes::DebianSource

  def test_knows_which_suite_carries_which_ruby
    assert DebianSource.applicable?("3.3.8")
    assert DebianSource.applicable?("3.1.2")
    refute DebianSource.applicable?("3.2.5")
    refute DebianSource.applicable?("3.3.0-preview1")
  end

  def test_the_entry_is_a_deb822_deb_src_stanza_for_the_suite
    debian = DebianSource.new(version: "3.3.8", cache_dir: tmpdir, log: nil, progress: nil, sources_dir: "/etc/apt/sources.list.d")
    assert_equal "ruby3.3", debian.package
    assert_equal "/etc/apt/sources.list.d/rubyrig-trixie-src.sources", debian.entry_path
    text = debian.entry_text("http://mirror.example/debian")
    assert_match(/^Types: deb-src\nURIs: http:\/\/mirror\.example\/debian\nSuites: trixie\nComponents: main\n/, text)
  end
end

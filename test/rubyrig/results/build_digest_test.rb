# The build digest on real files: a rebuilt executable or libruby changes it; another version's libruby
# beside it does not.
require "test_helper"

class BuildDigestTest < Minitest::Test
  include RubyrigTest

  def test_a_rebuild_changes_the_digest_and_another_versions_library_does_not
    prefix = tmpdir
    FileUtils.mkdir_p([File.join(prefix, "bin"), File.join(prefix, "lib", "x86_64-linux-gnu")])
    exe = File.join(prefix, "bin", "ruby")
    lib = File.join(prefix, "lib", "x86_64-linux-gnu", "libruby-3.3.so.3.3.8")
    File.write(exe, "stub")
    File.write(lib, "build one")
    first = Rubyrig::Results::BuildDigest.of(exe, "3.3.8")
    assert_match(/\A\h{16}\z/, first)
    File.write(File.join(prefix, "lib", "libruby.so.3.4.1"), "another ruby")
    assert_equal first, Rubyrig::Results::BuildDigest.of(exe, "3.3.8")
    File.write(lib, "build two")
    refute_equal first, (second = Rubyrig::Results::BuildDigest.of(exe, "3.3.8"))
    File.write(exe, "stub rebuilt")
    refute_equal second, Rubyrig::Results::BuildDigest.of(exe, "3.3.8")
    assert_nil Rubyrig::Results::BuildDigest.of(File.join(prefix, "bin", "gone"), "3.3.8")
  end
end

require "test_helper"

# Apt against this machine's real dpkg database: what is installed (packages and what they provide)
# and the one line a user who is not root gets.
class AptTest < Minitest::Test
  include SlowTest

  def apt(uid: 1000) = Rubyrig::Apt.new(io: StringIO.new, uid: uid, env: ENV.to_h)

  def test_installed_packages_and_what_they_provide_count_as_installed
    needs(Rubyrig::Processes::Which.find("dpkg-query"), "not a Debian system")
    assert apt.installed?("dpkg"), "dpkg is installed on every Debian system"
    provider = `dpkg-query -W -f '${Provides}\\n' 2>/dev/null`.lines.map(&:strip).find { |p| !p.empty? }
    skip "no installed package provides a virtual package" unless provider
    assert apt.installed?(provider.split(",").first.strip.sub(/\s.*/, ""))
  end

  def test_without_root_a_missing_package_is_one_line_with_the_sudo_command
    needs(Rubyrig::Processes::Which.find("dpkg-query"), "not a Debian system")
    error = assert_raises(Rubyrig::ToolMissing) { apt.ensure!(%w[dpkg rubyrig-no-such-package], why: "testing") }
    assert_equal "testing needs the Debian packages rubyrig-no-such-package: run " \
      "`sudo apt-get install -y --no-install-recommends rubyrig-no-such-package`", error.message
  end

  def test_nothing_missing_does_nothing
    needs(Rubyrig::Processes::Which.find("dpkg-query"), "not a Debian system")
    assert_nil apt(uid: 0).ensure!(%w[dpkg], why: "testing")
  end
end

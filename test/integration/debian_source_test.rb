require "test_helper"

# Fetches Ruby's source from Debian the way a fresh machine would: apt gets a private state with no
# sources at all, so rubyrig must add the deb-src entry itself (root) or say what to add (not root).
class DebianSourceTest < Minitest::Test
  include SlowTest

  def apt_state
    dir = tmpdir
    %w[sources.list.d lists/partial cache].each { |d| FileUtils.mkdir_p(File.join(dir, d)) }
    options = ["-o", "Dir::Etc::sourcelist=/dev/null", "-o", "Dir::Etc::sourceparts=#{dir}/sources.list.d",
      "-o", "Dir::State::lists=#{dir}/lists", "-o", "Dir::Cache=#{dir}/cache"]
    [dir, options]
  end

  def source(dir, options, root:, version: "3.1.2")
    progress = Rubyrig::Runtimes::BuildProgress.new(io: @io = StringIO.new, tty: false)
    log = Rubyrig::Runtimes::BuildLog.new(path: File.join(dir, "build.log"), progress: progress, env: {})
    Rubyrig::Runtimes::DebianSource.new(version: version, cache_dir: dir, log: log, progress: progress,
      root: root, sources_dir: File.join(dir, "sources.list.d"), apt_options: options)
  end

  def test_as_root_it_adds_the_deb_src_entry_updates_apt_and_unpacks_the_patched_source
    needs(Process.euid.zero?, "needs root")
    dir, options = apt_state
    debian = source(dir, options, root: true)
    unpacked = debian.unpack(File.join(dir, "src"))
    entry = File.join(dir, "sources.list.d", "rubyrig-bookworm-src.sources")
    assert File.file?(entry), "the deb-src entry was not written"
    assert_match(/^Types: deb-src$/, Rubyrig::Processes::TextFile.read(entry))
    assert_match(/^Suites: bookworm$/, Rubyrig::Processes::TextFile.read(entry))
    assert_match(/Added a deb-src entry for Debian bookworm in #{Regexp.escape(entry)}/, @io.string)
    assert_match(/apt-get update/, @io.string)
    assert_match(/\A3\.1\.2-/, debian.debian_version)
    assert File.file?(File.join(dir, "sources", "ruby3.1_#{debian.debian_version}.dsc"))
    assert File.file?(File.join(unpacked, "configure")), "the unpacked source has no configure script"
    gmake = Rubyrig::Processes::TextFile.read(File.join(unpacked, "defs", "gmake.mk"))
    refute_match(/^update-gems: \|/, gmake, "Debian's no-download patch was not applied")
    assert_equal "debian", debian.facts["kind"]
  end

  def test_without_root_it_names_the_entry_to_add
    dir, options = apt_state
    error = assert_raises(Rubyrig::BuildError) { source(dir, options, root: false, version: "3.3.8").fetch }
    assert_match(/no deb-src entry for Debian trixie/, error.message)
    assert_match(/Types: deb-src \| URIs: http\S+ \| Suites: trixie \| Components: main/, error.message)
    assert_match(/rubyrig-trixie-src\.sources/, error.message)
    refute_includes error.message, "\n"
    refute File.exist?(File.join(dir, "sources.list.d", "rubyrig-trixie-src.sources"))
  end

  # The cached .dsc is the one `rubyrig build 3.3.8` used (bin/setup-rubies builds it): what a build
  # installs comes from it, and apt can install all of it on this bookworm machine.
  def test_a_build_installs_what_the_cached_source_package_declares
    dsc = Dir.glob(File.join(cache_dir, "sources", "ruby3.3_*.dsc")).max
    needs(dsc, "no ruby3.3 .dsc in #{cache_dir}/sources; run bin/setup-rubies")
    text = Rubyrig::Processes::TextFile.read(dsc)
    declared = Rubyrig::Runtimes::DebianControl.field(text, "Build-Depends")
    packages = Rubyrig::Runtimes::DebianSource.declared_dependencies(text, arch: "amd64", installed: ->(_) { false })
    assert_equal "build-essential", packages.first, "Debian policy's implicit build dependency comes first"
    packages.drop(1).each { |name| assert_match(/(\A|[ ,|])#{Regexp.escape(name)}([ :(\[<,]|\z)/, declared, "#{name} is not declared in #{dsc}") }
    %w[bison libssl-dev libyaml-dev zlib1g-dev libffi-dev].each { |name| assert_includes packages, name }
    declared_names = declared.split(",").map { |r| r.strip[/\A[a-z0-9.+-]+/] }
    assert_operator packages.size - 1, :<, declared_names.size, "nocheck and cross entries are left out"
    _out, err, exit = Rubyrig::Processes::Child.capture(["apt-get", "-s", "-q", "install", *packages], timeout_s: 120)
    assert exit.success?, "apt cannot install the declared build dependencies here: #{err}"
  end

  # Debian's patches touch configure.ac, so make would run autoconf and a second whole configure; the
  # builder regenerates configure first, so that configure runs once.
  def test_a_patched_configure_ac_gets_its_configure_regenerated_before_configure_runs
    dsc = Dir.glob(File.join(cache_dir, "sources", "ruby3.3_*.dsc")).max
    needs(dsc, "no ruby3.3 .dsc in #{cache_dir}/sources; run bin/setup-rubies")
    needs(Rubyrig::Processes::Which.find("autoconf"), "autoconf is not installed (debhelper, which the .dsc declares, brings it)")
    src = File.join(tmpdir, "src")
    _out, err, exit = Rubyrig::Processes::Child.capture(["dpkg-source", "-x", dsc, src], timeout_s: 300)
    assert exit.success?, err
    configure = File.join(src, "configure")
    assert_operator File.mtime(File.join(src, "configure.ac")), :>, File.mtime(configure), "Debian's patches no longer touch configure.ac"
    progress = Rubyrig::Runtimes::BuildProgress.new(io: io = StringIO.new, tty: false)
    builder = Rubyrig::Runtimes::Builder.new(cache_dir: tmpdir, env: ENV.to_h, progress: progress, packages: nil)
    log = Rubyrig::Runtimes::BuildLog.new(path: File.join(tmpdir, "build.log"), progress: progress, env: {})
    builder.send(:regenerate_configure, src, log)
    assert_operator File.mtime(configure), :>=, File.mtime(File.join(src, "configure.ac"))
    assert_match(/autoconf: configure\.ac is newer than configure/, io.string)
  end
end

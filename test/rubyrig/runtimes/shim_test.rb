require "test_helper"

class ShimTest < Minitest::Test
  def interpreter(path)
    Rubyrig::Runtimes::Interpreter.new(name: "x", path: path, engine: "jruby", fingerprint: "abc123")
  end

  def test_an_interpreter_not_called_ruby_gets_a_ruby_symlink_first_on_path
    bin = tmpdir
    real = write(bin, "jruby", "#!/bin/sh\n")
    File.chmod(0o755, real)
    root = tmpdir
    dirs = Rubyrig::Runtimes::Shim.new(root: root).bin_dirs(interpreter(real))
    assert_equal [File.join(root, "abc123"), File.realpath(bin)], dirs.first(2)
    assert_equal File.realpath(real), File.readlink(File.join(root, "abc123", "ruby"))
    assert_equal dirs, Rubyrig::Runtimes::Shim.new(root: root).bin_dirs(interpreter(real)), "a second call must reuse the shim"
  end

  def test_an_interpreter_called_ruby_needs_no_shim
    assert_equal ["/usr/bin"], Rubyrig::Runtimes::Shim.new(root: tmpdir).bin_dirs(interpreter("/usr/bin/ruby"))
  end
end

# Every constant lives where its name says: eager loading the whole gem through Zeitwerk fails on a file
# that does not define the constant its path names, and code that runs inside measured processes stays
# outside the loader.
require "test_helper"

class LoaderTest < Minitest::Test
  LIB = File.join(RubyrigTest::ROOT, "lib", "rubyrig")

  def test_every_file_defines_the_constant_its_path_names
    Rubyrig::LOADER.eager_load(force: true)
    assert defined?(Rubyrig::Results::Store)
    assert defined?(Rubyrig::Processes::Child)
  end

  def test_no_constant_shadows_a_core_module
    %i[Process Monitor].each do |name|
      refute Rubyrig.const_defined?(name, false), "Rubyrig::#{name} would shadow ::#{name} inside Rubyrig"
    end
  end

  # Were these folders and files managed, their constants (Rubyrig::Probe, Rubyrig::Processes::Watchdog...)
  # would be defined or set to autoload; const_defined? is true for either.
  def test_code_run_inside_measured_processes_is_not_managed
    %i[Probe Workloads Sidekiq].each do |name|
      assert File.directory?(File.join(LIB, name.to_s.downcase)), name
      refute Rubyrig.const_defined?(name, false), "lib/rubyrig/#{name.to_s.downcase} must stay outside the loader"
    end
    {Rubyrig::Processes => :Watchdog, Rubyrig::Services => :StubServer}.each do |namespace, name|
      refute namespace.const_defined?(name, false), "#{namespace}::#{name} must stay outside the loader"
    end
  end
end

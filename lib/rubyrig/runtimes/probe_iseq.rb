# Compiles the probe once per CRuby into that interpreter's own binary instruction format, cached by the
# interpreter's fingerprint and the probe's digest, so that every measured process loads it for a
# third of what compiling its source costs (probe/loader.rb). JRuby and failed compiles get nil: the
# loader then reads the source.
require "digest"
require "fileutils"

module Rubyrig
  module Runtimes
    class ProbeIseq
      SOURCE = File.expand_path("../probe/probe.rb", __dir__)
      # Compiles, checks that the binary loads back in this very interpreter, then writes it (the loader
      # trusts the file: Ruby's binary loader is not made to read damaged input).
      COMPILE = "bin = RubyVM::InstructionSequence.compile_file(ARGV[0]).to_binary; " \
        "RubyVM::InstructionSequence.load_from_binary(bin); File.binwrite(ARGV[1], bin)"

      def initialize(cache_dir:)
        @dir = File.join(cache_dir, "probe-iseq")
      end

      # The binary for interpreter, compiled now if it is not cached; nil when it cannot be.
      def path_for(interpreter)
        return nil unless interpreter.cruby? && interpreter.fingerprint
        # The binary carries the source's path (warnings and backtraces name it), so two checkouts of
        # the same probe get a binary each.
        digest = Digest::SHA256.hexdigest("#{SOURCE}\0#{File.binread(SOURCE)}")[0, 16]
        file = File.join(@dir, "#{interpreter.fingerprint}-#{digest}.bin")
        return file if File.file?(file)
        compile(interpreter, file)
      end

      private

      def compile(interpreter, file)
        FileUtils.mkdir_p(@dir)
        tmp = "#{file}.#{Process.pid}.tmp"
        _out, _err, exit = Processes::Child.capture([interpreter.path, "-e", COMPILE, SOURCE, tmp], env: {"RUBYOPT" => nil}, timeout_s: 60)
        return nil unless exit.success? && File.file?(tmp)
        File.rename(tmp, file)
        file
      rescue Processes::Child::Timeout # a hung interpreter: measure with the source-loaded probe instead
        nil
      ensure
        FileUtils.rm_f(tmp) if tmp
      end
    end
  end
end

# Compiles the probe once per CRuby into that interpreter's own binary instruction format, cached by the
# interpreter's fingerprint and the probe's digest, so that every measured process loads it for a
# third of what compiling its source costs (probe/loader.rb); its extras (probe/extras.rb) go beside
# it, where the probe looks for them (the same name, ending in .extras.bin). JRuby and failed compiles
# get nil: the loader then reads the source.
require "digest"
require "fileutils"

module Rubyrig
  module Runtimes
    class ProbeIseq
      SOURCE = File.expand_path("../probe/probe.rb", __dir__)
      EXTRAS = File.expand_path("../probe/extras.rb", __dir__)
      # Compiles each source given (source, target, source, target...), checks that the binary loads back
      # in this very interpreter, then writes it (the loader trusts the file: Ruby's binary loader is
      # not made to read damaged input).
      COMPILE = "ARGV.each_slice(2) { |src, out| bin = RubyVM::InstructionSequence.compile_file(src).to_binary; " \
        "RubyVM::InstructionSequence.load_from_binary(bin); File.binwrite(out, bin) }"

      def initialize(cache_dir:)
        @dir = File.join(cache_dir, "probe-iseq")
      end

      # The binary for interpreter, compiled now if it is not cached; nil when it cannot be.
      def path_for(interpreter)
        return nil unless interpreter.cruby? && interpreter.fingerprint
        # The binary carries the source's path (warnings and backtraces name it), so two checkouts of
        # the same probe get a binary each.
        digest = Digest::SHA256.hexdigest([SOURCE, File.binread(SOURCE), EXTRAS, File.binread(EXTRAS)].join("\0"))[0, 16]
        file = File.join(@dir, "#{interpreter.fingerprint}-#{digest}.bin")
        return file if File.file?(file)
        compile(interpreter, file)
      end

      private

      # The extras are renamed into place first: where the probe's binary is, its extras are too.
      def compile(interpreter, file)
        FileUtils.mkdir_p(@dir)
        extras = file.delete_suffix(".bin") + ".extras.bin"
        tmps = ["#{file}.#{Process.pid}.tmp", "#{extras}.#{Process.pid}.tmp"]
        argv = [interpreter.path, "-e", COMPILE, SOURCE, tmps[0], EXTRAS, tmps[1]]
        _out, _err, exit = Processes::Child.capture(argv, env: {"RUBYOPT" => nil}, timeout_s: 60)
        return nil unless exit.success? && tmps.all? { |tmp| File.file?(tmp) }
        File.rename(tmps[1], extras)
        File.rename(tmps[0], file)
        file
      rescue Processes::Child::Timeout # a hung interpreter: measure with the source-loaded probe instead
        nil
      ensure
        FileUtils.rm_f(tmps) if tmps
      end
    end
  end
end

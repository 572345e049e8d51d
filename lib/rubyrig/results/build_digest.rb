# What tells two builds of one interpreter apart when its path, description and configure arguments
# (its fingerprint) are the same, as after a rebuild: a digest of the executable's bytes and of the
# shared libruby of its version beside it (<prefix>/lib or one multiarch folder below), recorded in
# run.json when the run starts. A JRuby's jars are not read; its launcher script is.
require "digest"

module Rubyrig
  module Results
    module BuildDigest
      module_function

      # path: the interpreter's executable; ruby_version: e.g. "3.3.8" (picks that version's libruby).
      # 16 hex digits, or nil when the executable cannot be read.
      def of(path, ruby_version)
        exe = File.realpath(path)
        files = [exe] + libraries(exe, ruby_version.to_s[/\A\d+\.\d+/])
        digest = Digest::SHA256.new
        files.each { |file| digest << File.basename(file) << Digest::SHA256.file(file).digest }
        digest.hexdigest[0, 16]
      rescue SystemCallError # a path gone or unreadable: no digest rather than a wrong one
        nil
      end

      def libraries(exe, minor)
        return [] unless minor
        lib = File.expand_path("../lib", File.dirname(exe))
        Dir.glob([File.join(lib, "libruby*.so*"), File.join(lib, "*", "libruby*.so*")])
          .select { |file| File.basename(file).include?(minor) && File.file?(file) }
          .map { |file| File.realpath(file) }.uniq.sort
      end
    end
  end
end

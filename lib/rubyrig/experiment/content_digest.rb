# The digest that says whether two runs ran the same experiment: SHA-256 over the experiment as given
# (with its seed, keys in a canonical order) and the content of the files its workloads name (script or
# jobs file, Gemfile, an app directory without log/, tmp/ and hidden entries). Paths are left out, so
# the same checkout on two machines gives the same digest; a changed line in bench.rb does not.
require "digest"
require "json"

module Rubyrig
  class Experiment
    module ContentDigest
      SKIPPED_DIRS = %w[log tmp].freeze

      module_function

      # data: the experiment Hash as stored in run.json; workloads: the validated Experiment's workloads;
      # paths: workload -> the files of its digest by name (its driver's digest_paths).
      def of(data, workloads, paths: ->(w) { {"target" => w.target, "gemfile" => w.gemfile} })
        files = workloads.to_h { |w| [w.name, contents(paths.call(w))] }
        "sha256:#{Digest::SHA256.hexdigest(JSON.generate(canonical("experiment" => data, "files" => files)))}"
      end

      def canonical(value)
        case value
        when Hash then value.keys.map(&:to_s).sort.to_h { |k| [k, canonical(value.fetch(k) { value[k.to_sym] })] }
        when Array then value.map { |v| canonical(v) }
        else value
        end
      end

      # name => content digest, for nested mappings too; names without content are left out.
      def contents(named)
        named.to_h { |name, path| [name, path.is_a?(Hash) ? contents(path) : content(path)] }.compact
      end

      # The content digest of a file, or of every file under a directory by relative path; nil for
      # anything else (a command's argv, a built-in's name).
      def content(path)
        return nil unless path.is_a?(String)
        return Digest::SHA256.file(path).hexdigest if File.file?(path)
        return nil unless File.directory?(path)
        files(path).to_h { |relative| [relative, Digest::SHA256.file(File.join(path, relative)).hexdigest] }
      end

      def files(dir, prefix = nil)
        Dir.children(File.join(*[dir, prefix].compact)).sort.flat_map do |name|
          next [] if name.start_with?(".") || (prefix.nil? && SKIPPED_DIRS.include?(name))
          relative = [prefix, name].compact.join("/")
          full = File.join(dir, relative)
          if File.directory?(full) then files(dir, relative)
          elsif File.file?(full) then [relative]
          else []
          end
        end
      end
    end
  end
end

# A workload's `headers:`: header names and values that every request of the workload carries, whatever
# generator sends it (wrk's --header, httperf's --add-header), checked at load time with the file's line;
# a traffic request's own header of the same name (in any case) wins over the workload's.
module Rubyrig
  module Kinds
    module Http
      module Headers
        # RFC 9110's token characters.
        NAME = /\A[!#$%&'*+\-.^_`|~0-9A-Za-z]+\z/
        # Headers the generator writes itself: the connection mode, the body's framing, the address.
        OWNED = %w[connection content-length transfer-encoding host].freeze

        module_function

        # The `headers:` of a workload entry (Experiment::Fields) as {name => value}, or nil without one.
        def load(fields)
          given = fields["headers"]
          return nil if given.nil?
          unless given.is_a?(Hash) && !given.empty?
            fields.fail(["headers"], "must be a mapping of header names to values, e.g. headers: {X-Forwarded-Proto: https}, got #{given.inspect}")
          end
          given.to_h { |name, value| check(fields, name, value) }.freeze
        end

        def check(fields, name, value)
          unless name.is_a?(String) && name.match?(NAME)
            fields.fail(["headers", name], "is not a header name: use letters, digits and - (e.g. X-Forwarded-Proto), got #{name.inspect}", own_name: false)
          end
          if OWNED.include?(name.downcase)
            fields.fail(["headers", name], "is set by the load generator (the connection mode, the body or the server's address); remove it from headers")
          end
          unless value.is_a?(String)
            fields.fail(["headers", name], "must be text, e.g. #{name}: \"#{value}\" (quote it), got #{value.inspect}")
          end
          fields.fail(["headers", name], "must be one line of text: remove the line break from its value") if value.match?(/[\r\n]/)
          [name, value]
        end

        # `base` with `own` laid over it: a name in `own` replaces the same name in `base`, in any case.
        def merge(base, own)
          return own if base.nil? || base.empty?
          names = own.keys.map(&:downcase)
          base.reject { |name, _| names.include?(name.downcase) }.merge(own)
        end
      end
    end
  end
end

# Loaded INSIDE the measured process: the cell's parameters from RUBYRIG_PARAMS ("key=value" lines, in
# which "%", "=", CR and LF of keys and values are written %25, %3D, %0D and %0A), typed like the
# default asked for. Shared by the script harness and the jobs support code.
# Old syntax and standard library only, like the probe: it loads on Ruby 2.5 and later.

module RubyrigParams
  class << self
    def all
      @all ||= ENV["RUBYRIG_PARAMS"].to_s.split("\n").each_with_object({}) do |line, acc|
        key, value = line.split("=", 2)
        acc[unescape(key)] = unescape(value) if key && value
      end
    end

    def unescape(text)
      text.gsub(/%(25|3D|0D|0A)/) { Regexp.last_match(1).hex.chr }
    end

    # One parameter converted to the type of its default: fetch("threads", 1) => 4.
    def fetch(name, default)
      raw = all[name.to_s]
      return default if raw.nil?
      case default
      when Integer then Integer(raw, 10)
      when Float then Float(raw)
      when true, false then %w[1 true yes on].include?(raw.downcase)
      else raw
      end
    end
  end
end

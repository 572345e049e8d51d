# Text that came from data (labels, parameter values, file names, other programs' output) made safe to
# print on a terminal: control characters, newlines included, are shown as escapes ("\n", "\e",
# "\x07"), so that data can neither break a one-line message or a table row nor move the cursor,
# change colours or set the window title.
module Rubyrig
  module Printable
    NAMED = {"\n" => "\\n", "\r" => "\\r", "\t" => "\\t", "\e" => "\\e"}.freeze
    CONTROL = /\p{Cc}/
    # rubyrig's own colours (Reporters::Terminal#paint) are the only escapes it prints.
    SGR = /\e\[[0-9;]*m/

    module_function

    # The text with every control character escaped; `keep_sgr: true` keeps colour sequences such as
    # "\e[1m" (for text rubyrig painted itself).
    def line(text, keep_sgr: false)
      text = text.to_s
      text = text.dup.force_encoding(Encoding::UTF_8).scrub unless text.encoding == Encoding::UTF_8 && text.valid_encoding?
      return text unless text.match?(CONTROL)
      pattern = keep_sgr ? Regexp.union(SGR, CONTROL) : CONTROL
      text.gsub(pattern) { |m| (m.size > 1) ? m : escape(m) }
    end

    def escape(char) = NAMED.fetch(char) { (char.ord < 0x80) ? format("\\x%02X", char.ord) : format("\\u%04X", char.ord) }
  end
end

# Data (labels, parameter values, names, paths, warnings) written into Markdown as data: it cannot
# start a tag, an entity, a link or emphasis, break out of a code span or a fenced block, split a table
# cell or end a table row. Newlines and other control characters show as escapes (Printable).
module Rubyrig
  module Reporters
    module MarkdownText
      # What CommonMark could read as markup inside a line of text: backslash escapes, tags, entities,
      # code spans, emphasis, links and table cell borders. `_` only at a word's edge: inside a word
      # (wall_s) it is never emphasis, so it stays readable.
      SPECIAL = /[\\`*\[\]<>&|]|(?<!\p{Alnum})_|_(?!\p{Alnum})/

      module_function

      # Plain text, escaped with backslashes (every ASCII punctuation may be).
      def text(value) = Printable.line(value).gsub(SPECIAL) { |c| "\\#{c}" }

      # A code span that shows the value exactly: a fence longer than any run of backticks in it, a
      # space inside the fence when it starts or ends with a backtick or a space (CommonMark strips one
      # from each side), and, in a table cell, `\|` for a pipe (GFM unescapes it inside code spans).
      def code(value, table: false)
        content = Printable.line(value)
        content = content.gsub("|", "\\|") if table
        ticks = "`" * (content.scan(/`+/).map(&:size).max.to_i + 1)
        pad = (content.match?(/\A[` ]|[` ]\z/) || content.empty?) ? " " : ""
        "#{ticks}#{pad}#{content}#{pad}#{ticks}"
      end

      # A fenced code block of several lines, fenced by more backticks than any line of it begins with.
      def fence(content, info = "")
        lines = content.to_s.split("\n", -1).map { |line| Printable.line(line) }
        longest = lines.filter_map { |line| line[/\A {0,3}(`{3,})/, 1]&.size }.max.to_i
        ticks = "`" * [3, longest + 1].max
        ["#{ticks}#{info}", *lines, ticks]
      end
    end
  end
end

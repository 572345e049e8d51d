# The one did-you-mean of rubyrig: the closest known word to a mistyped one, and the hint that goes at
# the end of an error line ("did you mean 'threads'?", or the list of what is known).
require "did_you_mean"

module Rubyrig
  module Suggest
    module_function

    # The known word closest to `word`, or nil.
    def closest(word, known) = DidYouMean::SpellChecker.new(dictionary: known.map(&:to_s)).correct(word.to_s).first

    # "did you mean 'x'?" when one is close, else "known: a, b, c" (or `fallback` when given).
    def hint(word, known, quote: "'", prefix: "", fallback: nil)
      found = closest(word, known)
      return "did you mean #{quote}#{prefix}#{found}#{quote}?" if found
      fallback || "known: #{known.map { |k| "#{prefix}#{k}" }.join(", ")}"
    end
  end
end

# Namespace for the CLI subcommands, one class per command.
module Rubyrig
  module Commands
  end
end

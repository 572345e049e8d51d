# Namespace for the renderers of an Analysis::Report: terminal, JSON, CSV and Markdown.
module Rubyrig
  module Reporters
    autoload :Csv, "rubyrig/reporters/csv"
    autoload :Format, "rubyrig/reporters/format"
    autoload :HttpSection, "rubyrig/reporters/http_section"
    autoload :Json, "rubyrig/reporters/json"
    autoload :Markdown, "rubyrig/reporters/markdown"
    autoload :Terminal, "rubyrig/reporters/terminal"

    EXPORTS = {json: :Json, csv: :Csv, markdown: :Markdown}.freeze

    module_function

    # Writes each requested export ({json: "out.json"}) and returns the paths written.
    def export(report, targets)
      targets.map do |format, path|
        File.write(path, const_get(EXPORTS.fetch(format)).new(report).render)
        path
      end
    end
  end
end

# Namespace for the renderers of an Analysis::Report: terminal, JSON, CSV, Markdown and HTML.
module Rubyrig
  module Reporters
    autoload :Charts, "rubyrig/reporters/charts"
    autoload :Csv, "rubyrig/reporters/csv"
    autoload :FigureTables, "rubyrig/reporters/figure_tables"
    autoload :Format, "rubyrig/reporters/format"
    autoload :Html, "rubyrig/reporters/html"
    autoload :HttpSection, "rubyrig/reporters/http_section"
    autoload :Json, "rubyrig/reporters/json"
    autoload :Markdown, "rubyrig/reporters/markdown"
    autoload :MarkdownText, "rubyrig/reporters/markdown_text"
    autoload :Svg, "rubyrig/reporters/svg"
    autoload :Terminal, "rubyrig/reporters/terminal"

    EXPORTS = {json: :Json, csv: :Csv, markdown: :Markdown, html: :Html}.freeze

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

# Namespace for the renderers of an Analysis::Report: terminal, JSON, CSV, Markdown and HTML.
module Rubyrig
  module Reporters
    EXPORTS = {json: :Json, csv: :Csv, markdown: :Markdown, html: :Html}.freeze

    # A report file that could not be written (a full disk, a folder removed during the run).
    class WriteError < Error; end

    module_function

    # Writes each requested export ({json: "out.json"}) and returns the paths written.
    def export(report, targets)
      targets.map do |format, path|
        File.write(path, const_get(EXPORTS.fetch(format)).new(report).render)
        path
      rescue SystemCallError => e # the run is kept; only this file is missing, and `rubyrig report` writes it again
        raise WriteError, "cannot write the #{format} report to #{path}: #{e.message.sub(/ @ .*/, "")}; the run is kept, " \
          "so `rubyrig report DIR --export-#{format} FILE` writes it again"
      end
    end
  end
end

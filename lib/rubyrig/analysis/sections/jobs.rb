# The jobs section: jobs completed over time per jobs workload (the timeline pictures), with the
# median length of each phase of a batch and when half, nine tenths and all of the jobs were done.
module Rubyrig
  class Analysis
    module Sections
      module Jobs
        PHASES = {"enqueue" => "enqueue", "boot" => "boot", "gate" => "at the gate", "drain" => "drain"}.freeze
        DONE = {0.5 => "half done", 0.9 => "90% done", 1.0 => "all done"}.freeze

        module_function

        def section(report)
          Section.of(name: "jobs", title: "Jobs over time", data: {}, tables: report.figures.jobs.map { |plot| table(plot) })
        end

        def table(plot)
          columns = [[:runtime, "runtime", "code"], [:n, "n", "count"]] + PHASES.map { |k, label| ["#{k}_s", label, "s"] } +
            DONE.map { |q, label| ["finished_#{(q * 100).round}_percent_s", label, "s"] }
          rows = plot.runtimes.map do |r|
            {runtime: r.runtime, n: r.batches.size, workload: plot.workload, params: plot.params}
              .merge(PHASES.keys.to_h { |k| ["#{k}_s", r.durations[k]] })
              .merge(r.finished_by.to_h { |q, t| ["finished_#{(q * 100).round}_percent_s", t] })
          end
          Section.table(name: "jobs_timeline", title: "Jobs over time · #{Section.where(plot.workload, plot.params)}",
            description: "medians; done: time after the gate opened", columns: columns, rows: rows, figure: [:jobs, plot])
        end
      end
    end
  end
end

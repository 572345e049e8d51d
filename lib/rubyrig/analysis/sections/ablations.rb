# The report section of `rubyrig why` (run.json's `ablations`): per decided difference, a table of the
# factors switched one at a time (the difference as measured first), each follow-up's ratio with its
# interval and verdict, the share of the gap it removes with its interval and what that says of the gap, the one-line answer, what was skipped and the
# command that reproduces it; in HTML a forest of the ratios, one row per factor switched.
require "shellwords"

module Rubyrig
  class Analysis
    module Sections
      module Ablations
        COLUMNS = [
          ["switch", "factor switched", "text"], ["point", "at", "params"], ["ratio", "ratio", "ratio"],
          ["verdict", "verdict", "verdict"], ["share", "share of the gap removed", "text"], ["outcome", "gap", "text"],
          ["run", "follow-up run", "path"]
        ].freeze
        AS_MEASURED = "none (the run as measured)"

        module_function

        def section(report)
          record = report.run.ablations
          return nil unless record
          command = Shellwords.join(Array(record["command_line"]))
          tables = record.fetch("answers", []).map { |answer| table(answer, command) }
          Section.of(name: "why_ablations", title: "Why, switching one factor at a time", data: {"why_ablations" => record}, tables: tables)
        end

        def table(answer, command)
          difference = answer.fetch("difference")
          rows = [measured_row(difference)] + answer.fetch("rows").map { |r| row(r, difference) }
          comparisons = rows.drop(1).map { |r| r["ratio"] }
          notes = [Section.method_line(comparisons, difference["reference"])].compact +
            answer.fetch("rows").map { |r| r["why"] }.uniq.map { |why| "tried: #{why}" } +
            answer.fetch("rows").select { |r| r["advice"] }.map { |r| "#{r["at"] || r["switch"]}, the share is not decided: #{r["advice"]}" } +
            answer.fetch("skipped", []).map { |s| "skipped #{s["switch"]}: #{s["reason"]}" } +
            ["Reproduce: #{command} (each follow-up is an ordinary run: rubyrig report renders it, rubyrig run --resume completes it)"]
          Section.table(name: "why_ablation", title: "Why: #{title(difference)}", description: answer["line"], columns: COLUMNS,
            rows: rows, notes: notes, figure: [:ablations, plot(difference, rows)])
        end

        def title(d) = Section.where("#{d["runtime"]} against #{d["reference"]}", d["workload"], d["params"] || {}, d["metric"])

        def measured_row(d)
          {"switch" => AS_MEASURED, "point" => {}, "ratio" => comparison(d, d["reference"]), "verdict" => comparison(d, d["reference"]),
           "share" => "", "outcome" => "", "run" => nil, "metric" => d["metric"]}
        end

        def row(r, d)
          c = comparison(r, d["reference"], runtime: d["runtime"], metric: d["metric"])
          outcome = r["ratio"].nil? ? "#{r["outcome"]}: #{r["reason"]}" : r["outcome"]
          {"switch" => r["switch"], "point" => r["point"] || {}, "ratio" => c, "verdict" => c, "share" => share(r), "outcome" => outcome,
           "run" => r["dir"].to_s, "metric" => d["metric"]}
        end

        # "104% [71%, 137%] (95%)", "undefined: why", or "" for a row recorded before shares were.
        def share(r)
          return "" unless r.key?("share_ci") && r["ratio"]
          return "undefined: #{r["share_reason"]}" unless r["share_ci"]
          format("%d%% [%d%%, %d%%] (%g%%)", *[r["share"], *r["share_ci"]].map { |x| (x * 100).round }, (r["share_confidence"] * 100).round(2))
        end

        # A Comparison of the recorded numbers, so that every format shows ratio and verdict as it does elsewhere.
        def comparison(h, reference, runtime: h["runtime"], metric: h["metric"])
          Comparison.new(runtime: runtime, baseline: reference, metric: metric, ratio: h["ratio"], ci: h["ci"], verdict: h["verdict"] || Verdict::NOT_COMPARED,
            confidence: h["confidence"], p_adjusted: h["p_adjusted"], df: h["df"], method_name: h["method_name"], margin: h["margin"], reason: h["reason"]).freeze
        end

        # The forest: a row per factor switched, the ratio to the reference with its interval, on a log axis.
        def plot(d, rows)
          lanes = rows.map do |r|
            c = r["ratio"]
            Figures::VerdictPlots::Row.new(runtime: d["runtime"], workload: r["switch"], params: r["point"], ratio: c.ratio, ci: c.ci,
              confidence: c.confidence, p_adjusted: c.p_adjusted, verdict: c.verdict, reason: nil).freeze
          end
          margin = rows.filter_map { |r| r["ratio"].margin }.first || Experiment::Decision::DEFAULT_EQUIVALENCE
          shown = lanes.flat_map { |l| [l.ratio, *l.ci] }.compact.select(&:positive?)
          definition = Metrics.fetch(d["metric"])
          Figures::VerdictPlots::Plot.new(metric: d["metric"], label: definition.label, unit: definition.unit, higher_is_better: definition.higher_is_better,
            baseline: d["reference"], margin: margin, confidences: lanes.filter_map(&:confidence).uniq.sort.freeze,
            axis: Axis.fit(shown + [1.0 - margin, 1.0 + margin], unit: "x", log: true), rows: lanes.freeze).freeze
        end
      end
    end
  end
end

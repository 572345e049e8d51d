# What a browser sees in an HTML report, measured by JavaScript run in the page: every picture with its
# marks, text that leaves its SVG's box (real glyph boxes against the viewBox), axes that start below
# zero or print negative ticks, text that overflows its cell or the page, and marks without a tooltip.
module ReportPage
  MARKS = %w[.verdict-mark .batch .point rect.grid-cell rect.error-bar polyline.batch-curve polyline.jobs-curve
    rect.phase rect.gvl-part rect.frame-bar].freeze

  SCRIPT = <<~JS
    (() => {
      const marks = #{MARKS.to_json};
      const out = {figures: [], cut: [], negative: [], overflow: [], untitled: [], page_width: document.documentElement.scrollWidth};
      for (const f of document.querySelectorAll('figure.chart')) {
        const count = (sel) => f.querySelectorAll(sel).length;
        out.figures.push({kind: f.dataset.figure, metric: f.dataset.metric || null, svgs: count('svg[viewBox]:not(.swatch)'),
          tables: count('table'), rows: count('tbody tr'), forest_rows: count('tr.forest-row'), batches: count('.batch'),
          points: count('.point'), median_ci: count('rect.median-ci'), bands: count('polygon.band'), series: count('polyline.series'),
          grid_cells: count('rect.grid-cell:not(.empty)'), error_bars: count('rect.error-bar'), batch_curves: count('polyline.batch-curve'),
          median_curves: count('polyline.median-curve'), jobs_curves: count('polyline.jobs-curve'), phases: count('rect.phase'),
          gvl_parts: count('rect.gvl-part'), frame_bars: count('rect.frame-bar'), grew: count('tr.grew-row'),
          yjit_lines: count('polyline.yjit-line'), verdict_marks: count('.verdict-mark'), band_rects: count('rect.band'),
          verdicts: [...f.querySelectorAll('tr.forest-row')].map(r => r.dataset.verdict)});
      }
      for (const svg of document.querySelectorAll('svg[viewBox]')) {
        const [vx, vy, vw, vh] = svg.getAttribute('viewBox').split(/[ ,]+/).map(Number);
        for (const t of svg.querySelectorAll('text')) {
          const b = t.getBBox();
          if (b.x < vx - 0.5 || b.y < vy - 0.5 || b.x + b.width > vx + vw + 0.5 || b.y + b.height > vy + vh + 0.5)
            out.cut.push(`${t.textContent} [${b.x.toFixed(1)}, ${b.y.toFixed(1)}, ${b.width.toFixed(1)} x ${b.height.toFixed(1)}] in ${vw} x ${vh}`);
        }
      }
      for (const g of document.querySelectorAll('g.axis')) {
        if (parseFloat(g.dataset.min) < 0) out.negative.push(`axis from ${g.dataset.min}`);
        for (const t of g.querySelectorAll('text')) if (/^[-−]/.test(t.textContent.trim())) out.negative.push(`tick ${t.textContent}`);
      }
      for (const el of document.querySelectorAll('td, th, figcaption, h2, h3, h4, p, li')) {
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible') out.overflow.push(el.textContent.slice(0, 80));
        const r = el.getBoundingClientRect();
        if (r.right > document.documentElement.clientWidth + 1) out.overflow.push(`beyond the page: ${el.textContent.slice(0, 80)}`);
      }
      for (const m of document.querySelectorAll(marks.join(','))) {
        if (!m.querySelector(':scope > title') || !m.querySelector(':scope > title').textContent.trim()) out.untitled.push(m.outerHTML.slice(0, 120));
      }
      return out;
    })()
  JS

  # Opens the report file and returns [errors, measurements] (see SCRIPT).
  def self.inspect(chromium, path)
    chromium.open("file://#{File.expand_path(path)}")
    [chromium.errors, chromium.evaluate(SCRIPT)]
  end
end

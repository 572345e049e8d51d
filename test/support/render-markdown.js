// Renders a Markdown file to HTML the way a CommonMark + GFM-tables renderer does (markdown-it with raw
// HTML allowed, as on GitHub before its sanitizer), so that tests can check that data written into
// report.md stays text: no tag it did not write, table rows with the cells they should have.
//   NODE_PATH=node_modules node test/support/render-markdown.js FILE
"use strict";
const fs = require("fs");
const MarkdownIt = require("markdown-it");

const source = fs.readFileSync(process.argv[2], "utf8");
process.stdout.write(new MarkdownIt({ html: true }).render(source));

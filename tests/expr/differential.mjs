// Differential test of reviewer's expression engine against GitHub's own evaluator, the npm
// package @actions/expressions (pinned in tests/expr/oracle/package-lock.json).
//
// Generates expressions from a seeded grammar over one fixed set of contexts, evaluates each
// with the oracle and with `reviewer expression`, and requires the same value and kind, or an
// error from both. Prints a summary; exits 1 on any disagreement.
//
// Usage: node differential.mjs REVIEWER_BINARY ORACLE_DIR [COUNT] [SEED]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { seededRandom } from "../support/seeded_random.mjs";

const [reviewer, oracleDir, countArg, seedArg] = process.argv.slice(2);
const count = Number(countArg ?? 20000);
const seed = Number(seedArg ?? 20261130);
const oracle = await import(
  pathToFileURL(join(oracleDir, "node_modules/@actions/expressions/dist/index.js")).href
);
const { Lexer, Parser, Evaluator, data } = oracle;

// Seeded, so a failure can be replayed by its seed.
const { random, pick, chance } = seededRandom(seed);

// The contexts: what workflows read (github, env, matrix, steps, needs, inputs), with mixed-case
// keys, numbers in several spellings, nested arrays and objects, and integer-like keys.
const contexts = {
  github: {
    event_name: "pull_request",
    base_ref: "main",
    head_ref: "Feature/X",
    ref: "refs/pull/7/merge",
    run_number: 42,
    event: {
      number: 7,
      pull_request: {
        title: "Fix: it's Broken",
        draft: false,
        labels: [{ name: "bug" }, { name: "CI" }, { name: "Docs", color: "0x1f" }],
        head: { repo: { fork: true, full_name: "someone/repo" } },
      },
    },
  },
  env: { CI: "true", NODE_ENV: "test", Empty: "", Zero: "0", Num: "1e3", Hex: "0x10", Space: " 12 " },
  matrix: { node: 22, "node-version": "22.x", os: "ubuntu-latest", include: [1, "2", true, null], flag: true },
  steps: {
    build: { outputs: { version: "1.2.3", count: "3", json: '{"a":[1,2],"B":{"c":null}}' }, outcome: "success", conclusion: "success" },
    lint: { outputs: {}, outcome: "failure", conclusion: "success" },
  },
  needs: { setup: { result: "success", outputs: { list: '["x","y"]', "7": "seven", Mixed: "M" } } },
  inputs: { n: 3.5, s: "Hello World", b: false, z: null, list: ["a", "B", "c"], nested: [[1, 2], [3, [4]]] },
};

const paths = [
  ["github"], ["github", "event_name"], ["github", "EVENT_NAME"], ["github", "base_ref"],
  ["github", "head_ref"], ["github", "run_number"], ["github", "event", "number"],
  ["github", "event", "pull_request", "title"], ["github", "event", "pull_request", "draft"],
  ["github", "event", "pull_request", "labels"], ["github", "event", "pull_request", "head", "repo", "fork"],
  ["github", "nope"], ["env"], ["env", "CI"], ["env", "ci"], ["env", "Empty"], ["env", "Zero"],
  ["env", "Num"], ["env", "Hex"], ["env", "Space"], ["env", "missing"], ["matrix"], ["matrix", "node"],
  ["matrix", "node-version"], ["matrix", "os"], ["matrix", "include"], ["matrix", "flag"],
  ["steps", "build", "outputs", "version"], ["steps", "build", "outputs", "count"],
  ["steps", "build", "outputs", "json"], ["steps", "lint", "outcome"], ["steps", "lint", "conclusion"],
  ["steps", "lint", "outputs"], ["needs", "setup", "result"], ["needs", "setup", "outputs", "list"],
  ["needs", "setup", "outputs"], ["inputs", "n"], ["inputs", "s"], ["inputs", "b"], ["inputs", "z"],
  ["inputs", "list"], ["inputs", "nested"], ["steps"], ["needs"],
];

const numbers = ["0", "1", "-1", "22", "3.5", "0.1", "1e3", "1E-2", "0x1F", "0X10", "0o17", "0b101", ".5",
  "5.", "-0", "+7", "1e21", "123456789012345678", "1.23456789012345678", "NaN", "Infinity", "-Infinity",
  "2.5e-7", "0.000001", "1e400", "007", "1_000", "0x", "1.2.3", "-.5", "+Infinity"];
const words = ["", "a", "A", "abc", "ABC", "Hello World", "hello", "22", "22.x", "ubuntu-latest", " 12 ",
  "0x10", "1e3", "true", "false", "null", "bug", "ci", "it''s", "{0}", "{0} and {1}", "{{0}}", "{1}",
  "}", "{", "{0:x}", "{00}", "a,b", "[1,2]", '{"k":"v"}', '{"a":1,"A":2}', '{"2":"b","1":"a","x":0}',
  "[]", "{}", " ", "main", "Feature", "x", "NaN", "Infinity", "-0"];

function literal() {
  switch (Math.floor(random() * 5)) {
    case 0: return pick(numbers);
    case 1: case 2: return `'${pick(words)}'`;
    case 3: return pick(["true", "false", "null", "TRUE", "Null"]);
    default: return pick(["1", "'x'", "true", "0"]);
  }
}

function access(depth) {
  const path = pick(paths);
  let text = path[0];
  for (const part of path.slice(1)) {
    if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(part) && chance(0.7)) text += `.${part}`;
    else text += `['${part}']`;
  }
  // Filters and indexes on whatever the path reached.
  for (let i = 0; i < 2 && chance(0.3); i++) {
    text += pick([".*", "[*]", "[0]", "[1]", "['name']", ".name", "[2.7]", "['0']", "[-1]", "[null]",
      "[true]", `[${expression(depth + 1)}]`, ".*.name", "[*][0]"]);
  }
  return text;
}

const functions = [
  ["contains", 2], ["startsWith", 2], ["endsWith", 2], ["format", 2], ["format", 3], ["format", 1],
  ["join", 1], ["join", 2], ["toJSON", 1], ["fromJSON", 1], ["Contains", 2], ["STARTSWITH", 2],
  ["case", 3], ["case", 5], ["contains", 1], ["join", 3], ["nosuch", 1], ["case", 4],
];

function call(depth) {
  const [name, arity] = pick(functions);
  const args = [];
  for (let i = 0; i < arity; i++) args.push(expression(depth + 1));
  if (name.toLowerCase() === "fromjson" && chance(0.6)) args[0] = `'${pick(words)}'`;
  if (name.toLowerCase() === "format" && chance(0.6)) args[0] = `'${pick(words)}'`;
  if (name === "case" && chance(0.6)) {
    for (let i = 0; i + 1 < args.length; i += 2) args[i] = pick(["true", "false", "1 == 1", "matrix.flag", "1"]);
  }
  return `${name}(${args.join(pick([", ", ","]))})`;
}

function expression(depth = 0) {
  if (depth > 4) return chance(0.5) ? literal() : access(depth);
  switch (Math.floor(random() * 10)) {
    case 0: case 1: return literal();
    case 2: case 3: return access(depth);
    case 4: return call(depth);
    case 5: return `${expression(depth + 1)} ${pick(["==", "!=", "<", "<=", ">", ">="])} ${expression(depth + 1)}`;
    case 6: return `${expression(depth + 1)} ${pick(["&&", "||"])} ${expression(depth + 1)}`;
    case 7: return `!${expression(depth + 1)}`;
    case 8: return `(${expression(depth + 1)})`;
    default:
      // Now and then something malformed: both must refuse it.
      return chance(0.15)
        ? pick(["1 +", "== 1", "(1", "a.b", "github.", "'open", "1 = 1", "1 & 2", "x | y", "[1]", "github[", "github.*.", "matrix.os)"])
        : `${expression(depth + 1)} ${pick(["==", "&&", "||"])} ${literal()}`;
  }
}

// The oracle's value as `reviewer expression` prints it: {"value":V,"kind":K}, arrays and
// objects converted in full, non-finite numbers as strings.
const kindNames = { [data.Kind.String]: "String", [data.Kind.Array]: "Array", [data.Kind.Dictionary]: "Object",
  [data.Kind.Boolean]: "Boolean", [data.Kind.Number]: "Number", [data.Kind.Null]: "Null" };
function plain(d) {
  switch (d.kind) {
    case data.Kind.Null: return null;
    case data.Kind.Boolean: return d.value;
    case data.Kind.Number: return Number.isFinite(d.value) ? d.value : null;
    case data.Kind.String: return d.value;
    case data.Kind.Array: return d.values().map(plain);
    case data.Kind.Dictionary: {
      const o = {};
      for (const { key, value } of d.pairs()) o[key] = plain(value);
      return o;
    }
  }
  throw new Error(`unknown kind ${d.kind}`);
}
function canonical(d) {
  const value = d.kind === data.Kind.Number && !Number.isFinite(d.value) ? String(d.value) : plain(d);
  return JSON.stringify({ value, kind: kindNames[d.kind] });
}

function toData(v) {
  if (v === null) return new data.Null();
  if (typeof v === "boolean") return new data.BooleanData(v);
  if (typeof v === "number") return new data.NumberData(v);
  if (typeof v === "string") return new data.StringData(v);
  if (Array.isArray(v)) return new data.Array(...v.map(toData));
  return new data.Dictionary(...Object.keys(v).map((key) => ({ key, value: toData(v[key]) })));
}
const contextData = toData(contexts);
const contextNames = Object.keys(contexts);

function evaluateWithOracle(text) {
  try {
    const lexed = new Lexer(text).lex();
    const tree = new Parser(lexed.tokens, contextNames, []).parse();
    if (tree === undefined) return { error: "empty" };
    return { line: canonical(new Evaluator(tree, contextData).evaluate()) };
  } catch (e) {
    return { error: String(e.message ?? e) };
  }
}

const expressions = [];
for (let i = 0; i < count; i++) expressions.push(expression());

const dir = mkdtempSync(join(tmpdir(), "reviewer-expr-"));
try {
  const contextFile = join(dir, "contexts.json");
  writeFileSync(contextFile, JSON.stringify(contexts));
  const ours = spawnSync(reviewer, ["expression", "--context", contextFile], {
    input: expressions.join("\n") + "\n",
    maxBuffer: 1 << 30,
    encoding: "utf8",
  });
  if (ours.status !== 0) {
    console.error(`reviewer expression exited ${ours.status}: ${ours.stderr}`);
    throw new Error("reviewer expression failed");
  }
  const lines = ours.stdout.split("\n");
  let values = 0, errors = 0;
  const disagreements = [];
  const kinds = {};
  expressions.forEach((text, i) => {
    const mine = JSON.parse(lines[i]);
    const theirs = evaluateWithOracle(text);
    if (theirs.error !== undefined && mine.error !== undefined) {
      errors++;
      return;
    }
    if (theirs.line !== undefined && mine.error === undefined && theirs.line === lines[i]) {
      values++;
      kinds[mine.kind] = (kinds[mine.kind] ?? 0) + 1;
      return;
    }
    disagreements.push({ expression: text, oracle: theirs.line ?? `error: ${theirs.error}`, reviewer: lines[i] });
  });
  for (const d of disagreements.slice(0, 25)) {
    console.log(`DISAGREE ${JSON.stringify(d.expression)}\n  oracle:   ${d.oracle}\n  reviewer: ${d.reviewer}`);
  }
  console.log(`differential (seed ${seed}): ${count} expressions, ${values} values agree ` +
    `(${Object.entries(kinds).map(([k, n]) => `${k} ${n}`).join(", ")}), ${errors} errors agree, ` +
    `${disagreements.length} disagree`);
  // The generator must reach values of every kind, or the agreement proves little.
  const enough = ["Null", "Boolean", "Number", "String", "Array", "Object"].every((k) => (kinds[k] ?? 0) >= 20);
  if (!enough) console.log("too few values of some kind: the generator no longer covers the language");
  // exitCode, not exit(): exit() would leave before the finally removes the directory.
  process.exitCode = disagreements.length === 0 && enough && values > count / 3 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

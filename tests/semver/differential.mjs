// Differential test of `reviewer semver` against npm's own semver command line (bin/semver.js
// of the package pinned in tests/semver/oracle/package-lock.json).
//
// Builds argument lists from npm's test vectors (tests/data/semver: valid and invalid versions,
// ranges) and from seeded random text, runs both command lines on each, and requires the same
// standard output and the same exit code. Prints a summary; exits 1 on any disagreement.
// Arguments that start with "-" or are "--" are left out: the option surface differs by design
// (docs/resolver.md).
//
// Usage: node differential.mjs REVIEWER_BINARY ORACLE_DIR DATA_DIR [COUNT] [SEED]
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { seededRandom } from "../support/seeded_random.mjs";

const [reviewer, oracleDir, dataDir, countArg, seedArg] = process.argv.slice(2);
const count = Number(countArg ?? 300);
const seed = Number(seedArg ?? 15);
const npmCli = join(oracleDir, "node_modules/semver/bin/semver.js");

// Seeded, so a failure can be replayed by its seed.
const { random, pick, chance } = seededRandom(seed);

// Every string in the vectors: versions and ranges alike serve as either.
const strings = new Set();
const walk = (v) => {
  if (typeof v === "string") strings.add(v);
  else if (Array.isArray(v)) v.forEach(walk);
  else if (v && typeof v === "object") Object.values(v).forEach(walk);
};
for (const f of readdirSync(dataDir).filter((f) => f.endsWith(".json"))) {
  walk(JSON.parse(readFileSync(join(dataDir, f), "utf8")));
}
const noise = () => {
  const alphabet = "0123456789.-+xX*v=<>~^ |ab";
  let s = "";
  for (let n = Math.floor(random() * 12); n > 0; n--) s += pick([...alphabet]);
  return s;
};
const pool = [...strings].filter((s) => s !== "" && !s.startsWith("-"));
const arg = () => (chance(0.1) ? noise() : pick(pool));

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  return { out: r.stdout, code: r.status };
};

let disagree = 0;
for (let i = 0; i < count; i++) {
  const args = [];
  if (chance(0.3)) args.push("-l");
  if (chance(0.3)) args.push("-p");
  if (chance(0.2)) args.push("-rv");
  for (let r = Math.floor(random() * 3); r > 0; r--) args.push("-r", arg());
  for (let v = 1 + Math.floor(random() * 5); v > 0; v--) args.push(arg());
  const safe = args.filter((a, k) => k === 0 || args[k - 1] === "-r" || !a.startsWith("-") || /^-[lpr]v?$/.test(a));
  const ours = run(reviewer, ["semver", ...safe]);
  const npm = run(process.execPath, [npmCli, ...safe]);
  if (ours.out !== npm.out || ours.code !== npm.code) {
    disagree++;
    console.log(`DISAGREE semver ${JSON.stringify(safe)}`);
    console.log(`  npm:      exit ${npm.code} ${JSON.stringify(npm.out)}`);
    console.log(`  reviewer: exit ${ours.code} ${JSON.stringify(ours.out)}`);
  }
}
console.log(`${count} argument lists, ${disagree} disagreements (seed ${seed})`);
process.exit(disagree === 0 ? 0 : 1);

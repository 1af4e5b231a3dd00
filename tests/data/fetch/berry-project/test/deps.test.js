// Every dependency the lock pins is installed and loads: the install was the lock's.
const test = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");

test("the runtime dependencies load and work", async () => {
  assert.strictEqual(typeof require("resolve").sync, "function");
  const chalk = require("chalk");
  assert.strictEqual(chalk.level >= 0, true);
  assert.strictEqual(typeof require("ansi-styles").red.open, "string");
  const { Command } = require("commander");
  assert.strictEqual(new Command("x").name(), "x");
  assert.strictEqual(typeof require("debug")("t"), "function");
  assert.strictEqual(require("escape-string-regexp")("a.b"), "a\\.b");
  assert.deepStrictEqual(require("minimist")(["--a", "1"]).a, 1);
  assert.strictEqual(typeof require("picocolors").red, "function");
  assert.strictEqual(require("semver").satisfies("1.2.3", "^1.0.0"), true);
  assert.match(require("uuid").v4(), /^[0-9a-f-]{36}$/);
  assert.strictEqual(require("nanoid").nanoid(8).length, 8);
  const kleur = await import("kleur");
  assert.strictEqual(typeof kleur.default.red, "function");
});

test("the dev dependencies load and work", () => {
  assert.strictEqual(require("is-number")(5), true);
  assert.strictEqual(require("ms")("1s"), 1000);
  assert.ok(fs.existsSync(require.resolve("@types/node/package.json")));
});

test("the versions are the lock's", () => {
  assert.strictEqual(require("semver/package.json").version, "7.8.6");
  assert.strictEqual(require("debug/package.json").version, "4.4.3");
  assert.strictEqual(require("@types/node/package.json").version, "22.20.7");
});

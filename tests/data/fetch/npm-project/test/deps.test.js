// Runs in the review sandbox after `npm ci` installed everything offline from the store.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

test('the installed dependencies work', () => {
  assert.strictEqual(require('lodash').chunk([1, 2, 3], 2).length, 2);
  assert.ok(require('semver').satisfies('1.2.3', '^1.0.0'));
  assert.match(require('uuid').v4(), /^[0-9a-f-]{36}$/);
  assert.strictEqual(require('minimist')(['--a', 'b']).a, 'b');
  assert.strictEqual(typeof require('chalk').red, 'function');
  assert.strictEqual(typeof require('commander').Command, 'function');
  assert.strictEqual(typeof require('debug'), 'function');
  assert.strictEqual(typeof require('yargs'), 'function');
  assert.strictEqual(typeof require('chokidar').watch, 'function');
});

// esbuild's postinstall (install.js) replaces its JavaScript launcher with the native binary of
// the optional platform package npm chose for this machine.
test('the postinstall script ran and put the platform binary in place', () => {
  const bin = fs.readFileSync(path.join(__dirname, '..', 'node_modules/esbuild/bin/esbuild'));
  assert.deepStrictEqual([...bin.subarray(0, 4)], [0x7f, 0x45, 0x4c, 0x46]); // ELF
});

test('the optional dependency for this platform is installed, the others are not', () => {
  assert.ok(require.resolve('@esbuild/linux-x64/package.json'));
  assert.throws(() => require.resolve('@esbuild/darwin-arm64/package.json'));
  assert.throws(() => require.resolve('fsevents'));
  const out = require('esbuild').transformSync('let x: number = 1', { loader: 'ts' });
  assert.strictEqual(out.code, 'let x = 1;\n');
});

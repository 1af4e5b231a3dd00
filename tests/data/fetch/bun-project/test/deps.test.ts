import { expect, test } from "bun:test";
import chalk from "chalk";
import { Command } from "commander";
import semver from "semver";
import { z } from "zod";
import isNumber from "is-number";

test("semver and zod from the lock", () => {
  expect(semver.satisfies("1.2.3", "^1.0.0")).toBe(true);
  expect(z.string().parse("x")).toBe("x");
  expect(isNumber(5)).toBe(true);
});

test("commander and chalk from the lock", () => {
  const program = new Command().option("-n, --name <n>");
  program.parse(["node", "x", "--name", "bun"]);
  expect(program.opts().name).toBe("bun");
  expect(chalk.level >= 0).toBe(true);
});

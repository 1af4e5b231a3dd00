// Every declaration format: accepted forms, malformed, oversized, symlinked files and aliases.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "core/resolve/declarations.h"
#include "core/resolve/package_json.h"
#include "core/resolve/version_files.h"
#include "declaration_summary.h"
#include "tests/support/temp_dir.h"

namespace reviewer::resolve {
namespace {

using test_support::TempDir;

using testing::Lines;
using testing::summary;

TEST(PackageJson, EnginesAndPackageManager) {
  EXPECT_EQ(
      summary(parse_package_json(
          R"({"engines": {"node": ">=20 <23", "bun": "^1.3"}, "packageManager": "pnpm@9.1.0+sha512.abc"})")),
      (Lines{"pnpm 9.1.0+sha512.abc [9.1.0] package.json packageManager @package.json",
             "node >=20 <23 [>=20.0.0 <23.0.0-0] package.json engines.node @package.json",
             "bun ^1.3 [>=1.3.0 <2.0.0-0] package.json engines.bun @package.json"}));
  EXPECT_EQ(summary(parse_package_json(R"({"packageManager": "bun@1.3.10"})")),
            (Lines{"bun 1.3.10 [1.3.10] package.json packageManager @package.json"}));
  EXPECT_EQ(summary(parse_package_json(R"({"name": "x", "engines": {"npm": ">=10"}})")), Lines{});
  EXPECT_EQ(summary(parse_package_json(R"({"engines": {"node": ""}})")),
            (Lines{"node  [*] package.json engines.node @package.json"}));
}

TEST(PackageJson, Malformed) {
  EXPECT_EQ(summary(parse_package_json("[]")),
            (Lines{"invalid-declaration: package.json must hold a JSON object, not array "
                   "@package.json"}));
  EXPECT_EQ(summary(parse_package_json(R"({"engines": "node 20"})")),
            (Lines{"invalid-declaration: package.json engines is \"\\\"node 20\\\"\"; it must be "
                   "an object @package.json"}));
  EXPECT_EQ(summary(parse_package_json(R"({"engines": {"node": 20}})")),
            (Lines{"invalid-declaration: package.json engines.node is \"20\"; it must be a "
                   "string holding a semver range @package.json"}));
  EXPECT_EQ(summary(parse_package_json(R"({"packageManager": "deno@2.0.0"})")),
            (Lines{"invalid-declaration: package.json packageManager names \"deno\" in "
                   "\"deno@2.0.0\"; only npm, pnpm, yarn (Corepack) and bun are understood "
                   "@package.json"}));
  EXPECT_EQ(summary(parse_package_json(R"({"packageManager": "yarn@^4"})")),
            (Lines{"invalid-declaration: package.json packageManager declares yarn \"^4\", which "
                   "is not an exact version (expected MAJOR.MINOR.PATCH, e.g. 1.3.10) "
                   "@package.json"}));
  EXPECT_EQ(summary(parse_package_json(R"({"packageManager": "pnpm"})")),
            (Lines{"invalid-declaration: package.json packageManager is \"pnpm\"; expected "
                   "NAME@VERSION such as \"pnpm@9.1.0\" @package.json"}));
  const auto broken = parse_package_json("{\"engines\": ");
  ASSERT_EQ(broken.refusals.size(), 1U);
  EXPECT_EQ(broken.refusals[0].message.rfind("package.json is not valid JSON: ", 0), 0U);
  const auto deep = parse_package_json(std::string(100000, '[') + std::string(100000, ']'));
  EXPECT_EQ(summary(deep), (Lines{"invalid-declaration: package.json nests arrays or objects "
                                  "deeper than 64 levels @package.json"}));
}

TEST(PackageJson, AliasesRefused) {
  EXPECT_EQ(summary(parse_package_json(R"({"engines": {"node": "lts/*"}})")),
            (Lines{"invalid-declaration: package.json engines.node declares node \"lts/*\", an "
                   "alias that cannot be resolved offline; write a version such as 22.22.1 or a "
                   "semver range such as 22.x @package.json"}));
}

TEST(Nvmrc, Forms) {
  EXPECT_EQ(summary(parse_nvmrc("v22.1.0\n")), (Lines{"node v22.1.0 [22.1.0] .nvmrc @.nvmrc:1:1"}));
  EXPECT_EQ(summary(parse_nvmrc("# pinned for CI\r\n\r\n  22  # LTS\r\nfoo=bar\n")),
            (Lines{"node 22 [>=22.0.0 <23.0.0-0] .nvmrc @.nvmrc:3:3"}));
  EXPECT_EQ(summary(parse_nvmrc(">=20 <23")),
            (Lines{"node >=20 <23 [>=20.0.0 <23.0.0-0] .nvmrc @.nvmrc:1:1"}));
}

// nvm's aliases the release schedule answers are kept as aliases, for the resolver (resolved on
// the review's date, node_schedule_test.cpp); the others need nvm's own index or the host.
TEST(Nvmrc, ScheduleAliasesAreKeptForTheResolver) {
  for (const char* alias : {"lts/*", "lts/iron", "lts/-1", "node", "latest", "current"}) {
    const DeclarationSet set = parse_nvmrc(std::string(alias) + "\n");
    ASSERT_EQ(set.declarations.size(), 1U) << alias;
    EXPECT_TRUE(set.declarations[0].alias) << alias;
    EXPECT_EQ(set.declarations[0].value, alias);
  }
  const DeclarationSet nv = parse_node_version("lts/*\n");
  ASSERT_EQ(nv.declarations.size(), 1U);
  EXPECT_TRUE(nv.declarations[0].alias);
}

TEST(Nvmrc, RefusedForms) {
  for (const char* alias : {"stable", "system", "iojs", "lts", "unstable"}) {
    EXPECT_EQ(summary(parse_nvmrc(std::string(alias) + "\n")),
              (Lines{"invalid-declaration: .nvmrc declares node \"" + std::string(alias) +
                     "\", an alias that cannot be resolved offline; write a version such as "
                     "22.22.1 or a semver range such as 22.x @.nvmrc:1:1"}));
  }
  EXPECT_EQ(summary(parse_nvmrc("# nothing\n\n")),
            (Lines{"invalid-declaration: .nvmrc holds no version; write one such as 22.22.1 or "
                   "22 @.nvmrc"}));
  EXPECT_EQ(summary(parse_nvmrc("20\n22\n")),
            (Lines{"invalid-declaration: .nvmrc holds 2 versions (\"20\" and \"22\"); nvm "
                   "requires exactly one @.nvmrc:2:1"}));
  EXPECT_EQ(summary(parse_nvmrc("node=22\n22\n")),
            (Lines{"invalid-declaration: .nvmrc line 1 \"node=22\" uses the reserved key "
                   "\"node\"; write the version on a line of its own @.nvmrc:1:1"}));
  EXPECT_EQ(summary(parse_nvmrc("my-project\n")),
            (Lines{"invalid-declaration: .nvmrc declares node \"my-project\", which is not a "
                   "version or semver range (\"my-project\" is not a valid semver range: "
                   "\"my-project\" is not a comparator (expected an operator <, <=, >, >=, = or "
                   "none, then a version)) @.nvmrc:1:1"}));
}

// nvm >= 0.40 takes any number of key=value lines beside the version, but only distinct keys.
TEST(Nvmrc, KeyValueLines) {
  EXPECT_EQ(summary(parse_nvmrc("22\nfoo=1\nfoo=2")),
            (Lines{"invalid-declaration: .nvmrc line 3 \"foo=2\" repeats the key \"foo\" of line "
                   "2; nvm requires distinct keys @.nvmrc:3:1"}));
  EXPECT_EQ(summary(parse_nvmrc("foo = 1 # first\n\n22\n  foo=2\n")),
            (Lines{"invalid-declaration: .nvmrc line 4 \"foo=2\" repeats the key \"foo\" of line "
                   "1; nvm requires distinct keys @.nvmrc:4:3"}));
  // nvm looks a key up with `grep -E`, where a "." matches any character of an earlier key.
  EXPECT_EQ(summary(parse_nvmrc("22\nmirrorXprod=a\nmirror.prod=b\n")),
            (Lines{"invalid-declaration: .nvmrc line 3 \"mirror.prod=b\" repeats the key "
                   "\"mirrorXprod\" of line 2; nvm requires distinct keys @.nvmrc:3:1"}));
  EXPECT_EQ(summary(parse_nvmrc("22\nmirror.prod=a\nmirrorXprod=b\n")),
            (Lines{"node 22 [>=22.0.0 <23.0.0-0] .nvmrc @.nvmrc:1:1"}));
  EXPECT_EQ(summary(parse_nvmrc("22\nFOO=1\nfoo=2\nmirror=https://example.com/d?arch=x64\n")),
            (Lines{"node 22 [>=22.0.0 <23.0.0-0] .nvmrc @.nvmrc:1:1"}));
  EXPECT_EQ(summary(parse_nvmrc("npm=3\nnode\nnpm=4\n")),
            (Lines{"invalid-declaration: .nvmrc line 3 \"npm=4\" repeats the key \"npm\" of line "
                   "1; nvm requires distinct keys @.nvmrc:3:1"}));
  // A line whose key is empty is nvm's version line, so this file has two.
  EXPECT_EQ(summary(parse_nvmrc("20\n=foo\nnpm=10\n")),
            (Lines{"invalid-declaration: .nvmrc holds 2 versions (\"20\" and \"=foo\"); nvm "
                   "requires exactly one @.nvmrc:2:1"}));
}

TEST(NodeVersion, Forms) {
  EXPECT_EQ(summary(parse_node_version("v20.5.0\r\n")),
            (Lines{"node v20.5.0 [20.5.0] .node-version @.node-version:1:1"}));
  EXPECT_EQ(summary(parse_node_version("20.5")),
            (Lines{"node 20.5 [>=20.5.0 <20.6.0-0] .node-version @.node-version:1:1"}));
  EXPECT_EQ(summary(parse_node_version("")),
            (Lines{"invalid-declaration: .node-version is empty; write one node version such as "
                   "22.22.1 @.node-version"}));
  EXPECT_EQ(summary(parse_node_version("# comment\n20\n")),
            (Lines{"invalid-declaration: .node-version holds more than one line (\"# "
                   "comment\\x0A20\"); it must hold exactly one version and no comments "
                   "@.node-version:1:1"}));
  EXPECT_EQ(summary(parse_node_version("latest")).size(), 1U);
}

TEST(BunVersion, Forms) {
  EXPECT_EQ(summary(parse_bun_version(" 1.3.10 \n")),
            (Lines{"bun 1.3.10 [1.3.10] .bun-version @.bun-version:1:1"}));
  EXPECT_EQ(summary(parse_bun_version("latest\n")),
            (Lines{"invalid-declaration: .bun-version declares bun \"latest\", an alias that "
                   "cannot be resolved offline; write a version such as 22.22.1 or a semver "
                   "range such as 22.x @.bun-version:1:1"}));
  EXPECT_EQ(summary(parse_bun_version("\n\n")).size(), 1U);
}

class WorktreeFiles : public ::testing::Test {
 protected:
  TempDir dir_;
  TempDir outside_;
};

TEST_F(WorktreeFiles, ReadsEveryFormat) {
  dir_.write("package.json", R"({"engines": {"node": "22.x"}})");
  dir_.write(".nvmrc", "22\n");
  dir_.write(".node-version", "22.22.1\n");
  dir_.write(".bun-version", "1.3.10\n");
  dir_.write(".tool-versions", "nodejs 22.22.1\n");
  const auto set = read_declarations(dir_.path());
  EXPECT_EQ(set.refusals.size(), 0U);
  EXPECT_EQ(set.declarations.size(), 5U);
}

TEST_F(WorktreeFiles, AbsentFilesAreFine) {
  EXPECT_EQ(summary(read_declarations(dir_.path())), Lines{});
}

TEST_F(WorktreeFiles, SymlinkInsideRefused) {
  dir_.write("real-nvmrc", "22\n");
  ASSERT_EQ(::symlink("real-nvmrc", (dir_ / ".nvmrc").c_str()), 0);
  EXPECT_EQ(summary(read_declarations(dir_.path())),
            (Lines{"invalid-declaration: .nvmrc is a symlink; declaration files must be regular "
                   "files in the worktree, not links @.nvmrc"}));
}

TEST_F(WorktreeFiles, SymlinkOutsideRefused) {
  outside_.write("package.json", R"({"engines": {"node": "22.x"}})");
  ASSERT_EQ(::symlink((outside_ / "package.json").c_str(), (dir_ / "package.json").c_str()), 0);
  ASSERT_EQ(::symlink("../../../../../../../etc/passwd", (dir_ / ".node-version").c_str()), 0);
  EXPECT_EQ(summary(read_declarations(dir_.path())),
            (Lines{"invalid-declaration: package.json is a symlink; declaration files must be "
                   "regular files in the worktree, not links @package.json",
                   "invalid-declaration: .node-version is a symlink; declaration files must be "
                   "regular files in the worktree, not links @.node-version"}));
}

TEST_F(WorktreeFiles, OversizedRefused) {
  dir_.write(".nvmrc", std::string(kMaxVersionFileBytes + 1, '#'));
  dir_.write("package.json", "{\"x\": \"" + std::string(kMaxPackageJsonBytes, 'a') + "\"}");
  EXPECT_EQ(summary(read_declarations(dir_.path())),
            (Lines{"invalid-declaration: package.json is 1048585 bytes, over the 1048576-byte "
                   "bound for this file @package.json",
                   "invalid-declaration: .nvmrc is 65537 bytes, over the 65536-byte bound for "
                   "this file @.nvmrc"}));
}

TEST_F(WorktreeFiles, NonRegularRefused) {
  ASSERT_EQ(::mkdir((dir_ / ".nvmrc").c_str(), 0700), 0);
  ASSERT_EQ(::mkfifo((dir_ / ".bun-version").c_str(), 0600), 0);
  EXPECT_EQ(summary(read_declarations(dir_.path())),
            (Lines{"invalid-declaration: .nvmrc is not a regular file @.nvmrc",
                   "invalid-declaration: .bun-version is not a regular file @.bun-version"}));
}

TEST_F(WorktreeFiles, MissingWorktreeRefused) {
  const auto set = read_declarations(dir_ / "nope");
  ASSERT_EQ(set.refusals.size(), 1U);
  EXPECT_EQ(set.refusals[0].rule, "invalid-declaration");
}

TEST(Pins, ExactVersionsAndRanges) {
  const util::SourceLocation where{".github/workflows/ci.yml", 12, 9};
  EXPECT_EQ(summary(pin_declarations({{"node", "22.22.1", where}, {"bun", "v1.3.10", where}})),
            (Lines{"node 22.22.1 [22.22.1] pin at .github/workflows/ci.yml:12:9 "
                   "@.github/workflows/ci.yml:12:9",
                   "bun v1.3.10 [1.3.10] pin at .github/workflows/ci.yml:12:9 "
                   "@.github/workflows/ci.yml:12:9"}));
  // setup-node's `22` or `22.x` is a range the image's node must satisfy.
  EXPECT_EQ(
      summary(pin_declarations({{"node", "22", where}, {"deno", "2.0.0", where}})),
      (Lines{"node 22 [>=22.0.0 <23.0.0-0] pin at .github/workflows/ci.yml:12:9 "
             "@.github/workflows/ci.yml:12:9",
             "invalid-declaration: pin at .github/workflows/ci.yml:12:9 pins runtime "
             "\"deno\"; only node, bun and pnpm can be pinned @.github/workflows/ci.yml:12:9"}));
  EXPECT_EQ(summary(pin_declarations({{"node", "020.1.1", where}})).size(), 1U);
  EXPECT_EQ(pin_declarations({{"node", "020.1.1", where}}).refusals.at(0).rule,
            "invalid-declaration");
}

}  // namespace
}  // namespace reviewer::resolve

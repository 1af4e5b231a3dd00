// The self-check's walk of the whole filesystem: package-manager configurations and credential
// files are findings wherever they stand (not only in homes and /etc), the trees that belong to
// the build or the kernel are left out, and the walk stops at its total bounds with a finding.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/credentials/credential_scan.h"
#include "tests/unit/credentials/credential_fixture.h"

namespace reviewer::credentials {
namespace {

using namespace credtest;  // NOLINT(google-build-using-namespace): the fixture
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

// `t/fs` stands for the image's root: a content tree and nothing else.
ScanRoots filesystem(const TempTree& t) {
  ScanRoots roots;
  roots.content_trees = {t / "fs"};
  return roots;
}

// A configuration or credential file outside any home, as a derived image could leave one.
class APackageManagerConfiguration : public ::testing::TestWithParam<PlacedFile> {};

TEST_P(APackageManagerConfiguration, IsAFindingWhereverItStands) {
  TempTree t;
  t.write("fs/" + GetParam().relative, GetParam().text);
  EXPECT_THAT(scan(filesystem(t)), ElementsAre("image-credential: '" + t.path() + "/fs/" +
                                               GetParam().relative + GetParam().finding));
}

INSTANTIATE_TEST_SUITE_P(
    Places, APackageManagerConfiguration,
    ::testing::Values(
        // npm's global configuration ($PREFIX/etc/npmrc) and its builtin one (<npm>/npmrc).
        PlacedFile{
            "NpmGlobalConfig", "opt/reviewer/runtimes/node/etc/npmrc",
            "//registry.npmjs.org/:_authToken=abc\n",
            ":1' sets //registry.npmjs.org/:_authToken: npm would send a registry credential"},
        PlacedFile{"NpmBuiltinConfig", "opt/node/lib/node_modules/npm/npmrc", "_auth=dXNlcjpw\n",
                   ":1' sets _auth: npm would send a registry credential"},
        PlacedFile{"ProjectNpmrc", "srv/app/.npmrc", "\n_password=cGFzcw==\n",
                   ":2' sets _password: npm would send a registry credential"},
        PlacedFile{"YarnClassic", "usr/local/share/.yarnrc",
                   "registry \"https://registry.npmjs.org/\"\n\"//registry.npmjs.org/:_authToken\" "
                   "abc\n",
                   ":2' sets //registry.npmjs.org/:_authToken: yarn would send a registry "
                   "credential"},
        PlacedFile{"YarnBerry", "srv/app/.yarnrc.yml",
                   "npmRegistries:\n  \"https://npm.example\":\n    npmAuthToken: abc\n",
                   ":3' sets npmAuthToken: yarn would send a registry credential"},
        PlacedFile{"YarnBerryIdent", "etc/skel/.yarnrc.yml", "npmAuthIdent: \"me:pw\"\n",
                   ":1' sets npmAuthIdent: yarn would send a registry credential"},
        PlacedFile{"BunScopeToken", "srv/app/bunfig.toml",
                   "[install.scopes]\nmyorg = { token = \"abc\", url = \"https://r.example/\" }\n",
                   ":2' sets token: bun would send a registry credential"},
        PlacedFile{"BunRegistryPassword", "opt/bun/bunfig.toml",
                   "[install.registry]\nurl = \"https://r.example/\"\nusername = \"me\"\n"
                   "password = \"pw\"\n",
                   ":4' sets password: bun would send a registry credential"},
        PlacedFile{"BunRegistryUrlWithLogin", "opt/bun/bunfig.toml",
                   "[install]\nregistry = \"https://me:pw@r.example/\"\n",
                   ":2' sets a registry URL carrying a user and password: bun would send a "
                   "registry credential"},
        PlacedFile{"Pypirc", "srv/upload/.pypirc", "[pypi]\nusername = __token__\n",
                   "' is a PyPI upload configuration"},
        PlacedFile{"Netrc", "var/lib/ci/.netrc", "machine example.com\n",
                   "' is a netrc login file"},
        PlacedFile{"GitCredentials", "srv/git/.git-credentials", "https://me:pw@example.com\n",
                   "' is a git credential store"},
        PlacedFile{"DockerConfig", "srv/ci/.docker/config.json",
                   R"({"auths": {"ghcr.io": {"auth": "dXNlcjpwYXNz"}}})",
                   "' holds a login for 'ghcr.io' under \"auths\""},
        PlacedFile{"GhHosts", "opt/tools/gh/hosts.yml", "github.com:\n    oauth_token: abc\n",
                   ":2' holds oauth_token: the GitHub CLI would use its token"}),
    [](const auto& p) { return p.param.name; });

// Names that only look like package-manager configurations: no finding.
TEST(FilesystemScan, CleanConfigurationsAndOtherConfigJsonAreNotFindings) {
  TempTree t;
  t.write("fs/opt/node/etc/npmrc", "prefix=/opt/node\nfund=false\n");
  t.write("fs/srv/app/.yarnrc", "registry \"https://registry.npmjs.org/\"\n");
  t.write("fs/srv/app/.yarnrc.yml", "nodeLinker: node-modules\nnpmAuthToken: \"\"\n");
  t.write("fs/srv/app/bunfig.toml", "[install]\nregistry = \"https://r.example/\"\ntoken = \"\"\n");
  t.write("fs/srv/app/config.json", R"({"credsStore": "pass"})");          // not a Docker client's
  t.write("fs/srv/app/hosts.yml", "github.com:\n    oauth_token: abc\n");  // not gh's
  EXPECT_THAT(scan(filesystem(t)), IsEmpty());
}

TEST(FilesystemScan, ATokenFileOutsideHomesAndEtcIsFound) {
  TempTree t;
  t.write("fs/srv/deploy/ci.env", "GITHUB_TOKEN=" + fake("ghp_", kAlnum, 36) + "\n");
  EXPECT_THAT(scan(filesystem(t)),
              ElementsAre("image-credential: '" + t.path() +
                          "/fs/srv/deploy/ci.env:1' holds a GitHub personal access token "
                          "(github-pat): ghp_…"));
}

// /proc, /sys and /dev are the kernel's; /workspace and /tmp/review are the build's.
TEST(FilesystemScan, SkippedTreesAreNotWalked) {
  TempTree t;
  for (const char* dir : {"proc/1", "workspace", "tmp/review"}) {
    t.write("fs/" + std::string(dir) + "/.npmrc", "_authToken=abc\n");
    t.write("fs/" + std::string(dir) + "/env", fake("ghp_", kAlnum, 36));
  }
  t.write("fs/tmp/other/env", fake("ghp_", kAlnum, 36));
  ScanRoots roots = filesystem(t);
  roots.skipped_trees = {t / "fs/proc", t / "fs/workspace", t / "fs/tmp/review"};
  EXPECT_THAT(scan(roots), ElementsAre("image-credential: '" + t.path() +
                                       "/fs/tmp/other/env:1' holds a GitHub personal access "
                                       "token (github-pat): ghp_…"));
}

TEST(FilesystemScan, ASkippedTreeNamedAsAHomeIsStillCheckedAsAHome) {
  TempTree t;
  t.write("fs/tmp/review/home/.npmrc", "_authToken=abc\n");
  t.write("fs/tmp/review/home/.git-credentials",
          "https://me:" + fake("ghp_", kAlnum, 36) + "@github.com\n");
  t.write("fs/tmp/review/tmp/env", fake("ghp_", kAlnum, 36));
  ScanRoots roots;
  roots.homes = {t / "fs/tmp/review/home"};
  roots.content_trees = {t / "fs/tmp/review/home", t / "fs"};
  roots.skipped_trees = {t / "fs/tmp/review"};
  const std::string h = "image-credential: '" + t.path() + "/fs/tmp/review/home/";
  EXPECT_THAT(scan(roots),
              ElementsAre(h + ".git-credentials' is a git credential store",
                          h + ".npmrc:1' sets _authToken: npm would send a registry credential",
                          h + ".git-credentials:1' holds a GitHub personal access token "
                              "(github-pat): ghp_…"));
}

// Files that cannot show a token's shape (compressed streams) or are machine code (ELF) are not
// searched.
TEST(FilesystemScan, CompressedAndElfFilesAreNotSearched) {
  TempTree t;
  const std::string token = fake("ghp_", kAlnum, 36);
  t.write("fs/usr/share/doc/x/changelog.gz", std::string("\x1f\x8b\x08\0", 4) + token);
  t.write("fs/usr/share/doc/x/changelog.xz", std::string("\xfd"
                                                         "7zXZ\0",
                                                         6) +
                                                 token);
  t.write("fs/usr/share/doc/x/changelog.zst", std::string("\x28\xb5\x2f\xfd", 4) + token);
  t.write("fs/usr/lib/libx.so.1", std::string("\x7f"
                                              "ELF\x02\x01",
                                              6) +
                                      token);
  t.write("fs/usr/share/doc/x/plain", token);
  auto result = scan_for_credentials(filesystem(t), {});
  EXPECT_THAT(texts(result.findings),
              ElementsAre("image-credential: '" + t.path() +
                          "/fs/usr/share/doc/x/plain:1' holds a GitHub personal access token "
                          "(github-pat): ghp_…"));
  EXPECT_EQ(result.files_read, 1u);
}

TEST(FilesystemScan, TheWalkStopsAtItsEntryBoundWithAFinding) {
  TempTree t;
  for (int i = 0; i < 5; ++i) {
    t.write("fs/f" + std::to_string(i), "x\n");
  }
  ScanRoots roots = filesystem(t);
  roots.limits.max_entries = 3;
  EXPECT_THAT(scan(roots), ElementsAre("image-credential: the scan stopped at its bound of 3 "
                                       "directory entries, so what it did not reach cannot be "
                                       "shown to hold no credential"));
}

TEST(FilesystemScan, TheWalkStopsAtItsByteBoundWithAFinding) {
  TempTree t;
  t.write("fs/a", std::string(600, 'x'));
  t.write("fs/b", std::string(600, 'x'));
  ScanRoots roots = filesystem(t);
  roots.limits.max_bytes = 1000;
  EXPECT_THAT(scan(roots), ElementsAre("image-credential: the scan stopped at its bound of 1000 "
                                       "bytes read, so what it did not reach cannot be shown to "
                                       "hold no credential"));
}

TEST(FilesystemScan, TheWalkStopsAtItsTimeBoundWithAFinding) {
  TempTree t;
  t.write("fs/a", "x\n");
  ScanRoots roots = filesystem(t);
  roots.limits.max_duration = std::chrono::milliseconds(0);
  auto found = scan(roots);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_THAT(found[0], HasSubstr("the scan stopped at its bound of 0 s"));
  EXPECT_THAT(found[0], Not(HasSubstr("ghp_")));
}

}  // namespace
}  // namespace reviewer::credentials

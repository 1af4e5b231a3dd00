// Dependencies without network, end to end: `reviewer review --engine podman` of a project with
// a real lock file and real registry dependencies (esbuild's postinstall and its optional
// platform packages among them). The host fetches the tarballs into the store, the sandbox
// installs them offline with `npm ci` and runs the project's tests; a second review downloads
// nothing; hostile lock files are refused before any sandbox exists.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "tests/image/container.h"

namespace reviewer::image_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kImage = "reviewer-node22-bun1310";
constexpr const char* kProject = REVIEWER_SOURCE_DIR "/tests/data/fetch/npm-project";
constexpr const char* kBunProject = REVIEWER_SOURCE_DIR "/tests/data/fetch/bun-project";
constexpr const char* kPnpmProject = REVIEWER_SOURCE_DIR "/tests/data/fetch/pnpm-project";
// The pnpm project's pnpm/action-setup step, which the corepack tests replace.
constexpr const char* kPnpmActionSetup =
    "      - uses: pnpm/action-setup@fe02b34f77f8bc703788d5817da081398fad5dd2 # v4.0.0\n";
constexpr const char* kYarnProject = REVIEWER_SOURCE_DIR "/tests/data/fetch/yarn-project";
constexpr const char* kBerryProject = REVIEWER_SOURCE_DIR "/tests/data/fetch/berry-project";
// The pnpm project's dependencies locked by pnpm 8.15.9 (lockfileVersion 6.0).
constexpr const char* kPnpm8Lock =
    REVIEWER_SOURCE_DIR "/tests/data/fetch/pnpm8-lock/pnpm-lock.yaml";

class FetchReview : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = missing_image_reason(kImage); !why.empty()) {
      GTEST_SKIP() << why;
    }
    if (run("curl -q -sSfI --max-time 20 -o /dev/null "
            "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz")
            .exit_code != 0) {
      GTEST_SKIP() << "the npm registry (https://registry.npmjs.org/) cannot be reached";
    }
    std::string tmpl = (fs::temp_directory_path() / "reviewer-fetch-test-XXXXXX").string();
    root_ = ::mkdtemp(tmpl.data());
    repo_ = root_ + "/repo";
    store_ = root_ + "/store";
    fs::copy(kProject, repo_, fs::copy_options::recursive);
  }
  void TearDown() override {
    if (!root_.empty()) {
      fs::remove_all(root_);
    }
  }
  void commit() {
    ASSERT_EQ(run("cd " + shell_quote(repo_) +
                  " && git init -q -b main && git add -A && git -c user.name=t "
                  "-c user.email=t@example.invalid commit -q -m pr")
                  .exit_code,
              0);
  }
  // The project at `dir` as the pull request's worktree, in place of the npm project.
  void use(const char* dir) {
    fs::remove_all(repo_);
    fs::copy(dir, repo_, fs::copy_options::recursive);
  }
  // The berry project (yarn 4.18.1 wrote its lock: 26 registry packages, a builtin patch of
  // `resolve`, the root workspace) with the release its `yarnPath` names, as such projects commit
  // it: bin/yarn.js of the registry's @yarnpkg/cli-dist 4.18.1, the tarball checked by its sha512.
  void use_berry() {
    use(kBerryProject);
    const std::string release = repo_ + "/.yarn/releases";
    fs::create_directories(release);
    auto got = run(
        "cd " + shell_quote(root_) +
        " && curl -q -sSf --max-time 120 -o cli.tgz "
        "https://registry.npmjs.org/@yarnpkg/cli-dist/-/cli-dist-4.18.1.tgz && echo "
        "'107f80e13c40b41597284d03190c56f41a3d72b5c72c9ef799fc634d026ebfc5e89cd5964e97a2f01439263"
        "7331c9354f4644e4f27303059fc88ebd12195d470  cli.tgz' | sha512sum -c --quiet && tar -xzf "
        "cli.tgz package/bin/yarn.js && mv package/bin/yarn.js " +
        shell_quote(release + "/yarn-4.18.1.cjs"));
    ASSERT_EQ(got.exit_code, 0) << got.output;
  }
  // Commits the worktree and reviews it; the review must pass.
  Outcome review_ok() {
    commit();
    auto r = review();
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.last_line(), "review-build-ok") << r.output;
    return r;
  }
  Outcome review() {
    return run(REVIEWER_BINARY_DIR "/bin/reviewer review " + shell_quote(repo_) +
               " --workflow .github/workflows/ci.yml --job test --base main --engine podman "
               "--store " +
               shell_quote(store_));
  }
  // Replaces the first `from` with `to` in the project's `file`, as a hostile PR would.
  void edit(const std::string& file, const std::string& from, const std::string& to) {
    const std::string path = repo_ + "/" + file;
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    std::ofstream(path, std::ios::trunc) << text;
  }
  // A hostile lock is refused with `rule` before any sandbox exists.
  void expect_refused_before_sandbox(const std::string& rule, const std::string& detail) {
    commit();
    auto r = review();
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_THAT(r.last_line(), HasSubstr("review-build-refused: " + rule)) << r.output;
    EXPECT_THAT(r.output, HasSubstr(detail));
    EXPECT_THAT(r.output, Not(HasSubstr("reviewer: job"))) << "a launcher ran after the fetch";
    EXPECT_EQ(containers_left_by(r.output), 0);
  }

  std::string root_;
  std::string repo_;
  std::string store_;
};

TEST_F(FetchReview, InstallsRealDependenciesOfflineAndASecondReviewFetchesNothing) {
  commit();
  auto cold = review();
  EXPECT_EQ(cold.exit_code, 0) << cold.output;
  EXPECT_EQ(cold.last_line(), "review-build-ok") << cold.output;
  // 42 tarballs for linux-x64: the 24 optional esbuild and fsevents entries of other platforms
  // are left out, as npm ci leaves them out.
  EXPECT_THAT(cold.output, HasSubstr("review: dependencies: package-lock.json: 42 tarballs ("));
  EXPECT_THAT(cold.output, HasSubstr("0 hits, 42 misses"));
  EXPECT_THAT(cold.output, HasSubstr("24 optional entries for other platforms left out"));
  EXPECT_THAT(cold.output, HasSubstr("added 42 packages"));
  EXPECT_THAT(cold.output, HasSubstr("# pass 3"));
  EXPECT_THAT(cold.output, HasSubstr("# fail 0"));
  EXPECT_EQ(containers_left_by(cold.output), 0) << "the sandbox was not removed";

  auto warm = review();
  EXPECT_EQ(warm.last_line(), "review-build-ok") << warm.output;
  EXPECT_THAT(warm.output, HasSubstr("42 hits, 0 misses, nothing downloaded"));
  EXPECT_THAT(warm.output, HasSubstr("# pass 3"));
  std::smatch m;
  const std::regex times("review: dependencies: .* in ([0-9.]+) s");
  if (std::regex_search(cold.output, m, times)) {
    std::cout << "fetch, cold: " << m[1] << " s\n";
  }
  if (std::regex_search(warm.output, m, times)) {
    std::cout << "fetch, warm: " << m[1] << " s\n";
  }
}

// The store is read-only in the sandbox: a step cannot plant a tarball for the next review.
TEST_F(FetchReview, TheStoreIsReadOnlyInTheSandboxAndEachJobCachesInItsOwnCopy) {
  std::ofstream(repo_ + "/.github/workflows/ci.yml", std::ios::trunc)
      << "on: pull_request\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
         "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"
         // The job's npm cache is its own writable copy of the read-only view.
         "      - run: test \"$npm_config_cache\" != /var/cache/reviewer-deps\n"
         "      - run: test -d \"$npm_config_cache/_cacache/content-v2/sha512\"\n"
         "      - run: mkdir \"$npm_config_cache/_cacache/tmp\"\n"
         "      - run: test \"$npm_config_offline\" = true\n"
         "      - run: if touch /var/cache/reviewer-deps/x; then exit 1; fi\n"
         "      - run: if rm -rf /var/cache/reviewer-deps/_cacache; then exit 1; fi\n"
         "      - run: test -d /var/cache/reviewer-deps/_cacache/content-v2/sha512\n";
  commit();
  auto r = review();
  EXPECT_EQ(r.last_line(), "review-build-ok") << r.output;
}

TEST_F(FetchReview, RefusesAGitDependencyBeforeAnySandbox) {
  edit("package-lock.json",
       "\"resolved\": \"https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz\"",
       "\"resolved\": \"git+ssh://git@github.com/lodash/lodash.git#"
       "f299b52f39486275a9e6483b60a410e06520c538\"");
  expect_refused_before_sandbox("dependency-source-refused", "to the git source");
}

TEST_F(FetchReview, RefusesAnHttpTarballBeforeAnySandbox) {
  edit("package-lock.json", "\"resolved\": \"https://registry.npmjs.org/lodash/",
       "\"resolved\": \"http://registry.npmjs.org/lodash/");
  expect_refused_before_sandbox("dependency-source-refused", "to the plain http URL");
}

TEST_F(FetchReview, RefusesAForeignRegistryBeforeAnySandbox) {
  edit("package-lock.json", "\"resolved\": \"https://registry.npmjs.org/lodash/",
       "\"resolved\": \"https://registry.yarnpkg.com/lodash/");
  expect_refused_before_sandbox("dependency-source-refused",
                                "to the foreign host https://registry.yarnpkg.com:");
}

TEST_F(FetchReview, RefusesATamperedIntegrityBeforeAnySandbox) {
  // lodash's entry keeps its URL but pins ms's integrity: the real bytes do not match.
  edit("package-lock.json",
       "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+"
       "LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg==",
       "sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/"
       "tXtF3WRTlA==");
  expect_refused_before_sandbox("dependency-integrity-mismatch",
                                "package-lock.json: \"node_modules/lodash\" downloaded with");
}

TEST_F(FetchReview, RefusesALockOutOfSyncWithPackageJsonBeforeAnySandbox) {
  edit("package.json", "\"semver\": \"7.6.3\"", "\"semver\": \"^6.0.0\"");
  expect_refused_before_sandbox("dependency-lock-mismatch",
                                "Invalid: lock file's semver@7.6.3 does not satisfy semver@^6.0.0");
}

// Without a lock file, CI's npm install resolves at its own time; the review resolves with the
// image's npm in a resolution sandbox (package.json alone, network), and the review's sandbox,
// without network, installs offline from the metadata and tarballs the host verified. The
// resolved tree is complete: `npm ls --all` finds nothing missing or invalid.
TEST_F(FetchReview, WithoutALockTheImagesNpmResolvesAndTheSandboxInstallsOffline) {
  fs::remove(repo_ + "/package-lock.json");
  edit(".github/workflows/ci.yml", "run: npm ci", "run: npm install && npm ls --all > /dev/null");
  commit();
  auto r = run(REVIEWER_BINARY_DIR "/bin/reviewer review " + shell_quote(repo_) +
               " --workflow .github/workflows/ci.yml --job test --base main --engine podman "
               "--store " +
               shell_quote(store_) + " --reports " + shell_quote(root_ + "/reports"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-ok") << r.output;
  EXPECT_THAT(r.output, HasSubstr("review: dependencies: no lock file; the image's npm resolved "
                                  "package.json to "));
  EXPECT_THAT(r.output, HasSubstr("package-lock.json (resolved at review time): "));
  EXPECT_THAT(r.output, HasSubstr("# pass 3"));
  EXPECT_TRUE(fs::is_regular_file(root_ + "/reports/resolved-package-lock.json"));
  EXPECT_EQ(containers_left_by(r.output), 0) << "the sandbox or the resolution's was not removed";
}

TEST_F(FetchReview, ADependencyTheRegistryCannotResolveIsNamedBeforeAnySandbox) {
  fs::remove(repo_ + "/package-lock.json");
  edit("package.json", "\"semver\": \"7.6.3\"", "\"semver\": \"99.0.0\"");
  expect_refused_before_sandbox("dependency-resolution-failed",
                                "npm install --package-lock-only exited");
}

TEST_F(FetchReview, WorkspacesWithoutALockAreRefusedBeforeAnySandbox) {
  fs::remove(repo_ + "/package-lock.json");
  edit("package.json", "\"private\": true,",
       "\"private\": true, \"workspaces\": [\"packages/*\"],");
  expect_refused_before_sandbox("dependency-manifest-invalid", "it declares workspaces");
}

// A bun.lock (text, written by the image's bun 1.3.10): the host fetches its tarballs, the
// launcher unpacks them into the job's Bun cache, and `bun install --frozen-lockfile` after
// setup-bun installs offline; the tests import every dependency.
TEST_F(FetchReview, ABunLockInstallsOfflineAndASecondReviewFetchesNothing) {
  use(kBunProject);
  commit();
  auto cold = review();
  EXPECT_EQ(cold.exit_code, 0) << cold.output;
  EXPECT_EQ(cold.last_line(), "review-build-ok") << cold.output;
  EXPECT_THAT(cold.output, HasSubstr("review: dependencies: bun.lock: 5 tarballs ("));
  EXPECT_THAT(cold.output, Not(HasSubstr("dependency-unpack")));
  EXPECT_THAT(cold.output, HasSubstr(" 2 pass"));
  EXPECT_THAT(cold.output, HasSubstr(" 0 fail"));
  auto warm = review();
  EXPECT_EQ(warm.last_line(), "review-build-ok") << warm.output;
  EXPECT_THAT(warm.output, HasSubstr("5 hits, 0 misses, nothing downloaded"));
}

// A pnpm-lock.yaml (v9, written by pnpm 10.33.0 from the npm registry) and pnpm itself: the host
// fetches pnpm@10.33.0 from the registry, verified against its integrity and packageManager's
// corepack hash, with the lock's 17 tarballs; pnpm/action-setup (emulated) puts that pnpm on
// PATH; `pnpm install --frozen-lockfile` installs offline from the view's file: registry and
// `pnpm test` runs the tests. A second review fetches nothing.
TEST_F(FetchReview, APnpmProjectInstallsWithPnpmFromTheStoreAndASecondReviewFetchesNothing) {
  use(kPnpmProject);
  commit();
  auto cold = review();
  EXPECT_EQ(cold.exit_code, 0) << cold.output;
  EXPECT_EQ(cold.last_line(), "review-build-ok") << cold.output;
  EXPECT_THAT(cold.output, HasSubstr("review: dependencies: pnpm-lock.yaml: 17 tarballs ("));
  EXPECT_THAT(cold.output, HasSubstr("0 hits, 17 misses"));
  EXPECT_THAT(cold.output, HasSubstr("review: package manager: pnpm 10.33.0 for the pnpm pinned at "
                                     "package.json:"));
  EXPECT_THAT(cold.output, HasSubstr(": 0 hits, 1 miss, "));
  EXPECT_THAT(cold.output, HasSubstr("verified against the registry's integrity and package.json's "
                                     "hash"));
  EXPECT_THAT(cold.output, HasSubstr("Installation Completed!"));
  // setup-node's `cache: pnpm` asked the real pnpm for its store, as the action does.
  EXPECT_THAT(cold.output, HasSubstr("pnpm's store: /tmp/review/"));
  EXPECT_THAT(cold.output, HasSubstr("pnpm cache is not found (a cold cache restores nothing)"));
  EXPECT_THAT(cold.output, HasSubstr("Done in"));
  EXPECT_THAT(cold.output, HasSubstr("# pass 2"));
  EXPECT_THAT(cold.output, HasSubstr("# fail 0"));
  EXPECT_EQ(containers_left_by(cold.output), 0) << "the sandbox was not removed";

  auto warm = review();
  EXPECT_EQ(warm.last_line(), "review-build-ok") << warm.output;
  EXPECT_THAT(warm.output, HasSubstr("17 hits, 0 misses, nothing downloaded"));
  EXPECT_THAT(warm.output, HasSubstr(": 1 hit, 0 misses, "));
  EXPECT_THAT(warm.output, HasSubstr("# pass 2"));
  std::smatch m;
  const std::regex times("review: dependencies: pnpm-lock.yaml: .* in ([0-9.]+) s");
  const std::regex pm_times("review: package manager: pnpm .* in ([0-9.]+) s");
  for (const auto* out : {&cold.output, &warm.output}) {
    if (std::regex_search(*out, m, times)) {
      std::cout << (out == &cold.output ? "cold" : "warm") << " lock fetch: " << m[1] << " s\n";
    }
    if (std::regex_search(*out, m, pm_times)) {
      std::cout << (out == &cold.output ? "cold" : "warm") << " pnpm fetch: " << m[1] << " s\n";
    }
  }
}

// pnpm 11 installs only from an HTTP registry and asks it for every locked package's metadata
// first (its supply-chain check): the host fetches those documents with the tarballs, the
// launcher serves the view on the sandbox's loopback, and the install checks each tarball against
// the lock as from the registry. A second review fetches nothing.
TEST_F(FetchReview, APnpm11ProjectInstallsFromTheLoopbackRegistryAndASecondReviewFetchesNothing) {
  use(kPnpmProject);
  edit("package.json", "\"pnpm@10.33.0+sha512.", "\"pnpm@11.28.11\", \"x\": \"");
  auto cold = review_ok();
  EXPECT_THAT(cold.output, HasSubstr("review: package manager: pnpm 11.28.11 for the pnpm pinned "
                                     "at package.json:"));
  EXPECT_THAT(cold.output,
              HasSubstr("review: dependencies: the registry's metadata of 17 packages ("));
  EXPECT_THAT(cold.output, HasSubstr("Lockfile passes supply-chain policies (17 entries"));
  EXPECT_THAT(cold.output, HasSubstr("using pnpm v11.28.11"));
  EXPECT_THAT(cold.output, Not(HasSubstr("ERR_PNPM")));
  EXPECT_THAT(cold.output, HasSubstr("# pass 2"));
  EXPECT_THAT(cold.output, HasSubstr("# fail 0"));
  auto warm = review();
  EXPECT_EQ(warm.last_line(), "review-build-ok") << warm.output;
  EXPECT_THAT(warm.output, HasSubstr("17 hits, 0 misses, nothing downloaded"));
  EXPECT_THAT(warm.output, HasSubstr("the registry's metadata of 17 packages"));
  EXPECT_THAT(warm.output, HasSubstr("17 hits, 0 downloaded (nothing)"));
  EXPECT_THAT(warm.output, HasSubstr("# pass 2"));
}

// pnpm 8 cannot install from the view's file: registry and reads only npm_config_registry: a plan
// that pins it gets the loopback registry there, and pnpm 8.15.9 installs its v6 lock offline.
TEST_F(FetchReview, APnpm8ProjectInstallsFromTheLoopbackRegistry) {
  use(kPnpmProject);
  fs::copy_file(kPnpm8Lock, repo_ + "/pnpm-lock.yaml", fs::copy_options::overwrite_existing);
  edit("package.json", "\"pnpm@10.33.0+sha512.", "\"pnpm@8.15.9\", \"x\": \"");
  auto r = review_ok();
  EXPECT_THAT(r.output, HasSubstr("review: package manager: pnpm 8.15.9 for the pnpm pinned at "
                                  "package.json:"));
  EXPECT_THAT(r.output, HasSubstr("review: dependencies: pnpm-lock.yaml: 17 tarballs ("));
  EXPECT_THAT(r.output, Not(HasSubstr("Couldn't get host")));
  EXPECT_THAT(r.output, Not(HasSubstr("ERR_PNPM")));
  EXPECT_THAT(r.output, HasSubstr("# pass 2"));
  EXPECT_THAT(r.output, HasSubstr("# fail 0"));
}

// `run_install: true` (vercel/ms's workflows): the emulated action runs `pnpm recursive install`
// itself, offline from the view, and the job's later steps find the installed packages.
TEST_F(FetchReview, PnpmActionSetupRunInstallTrueInstallsAtTheActionsStep) {
  use(kPnpmProject);
  edit(".github/workflows/ci.yml", "# v4.0.0\n",
       "# v4.0.0\n        with:\n          run_install: true\n");
  edit(".github/workflows/ci.yml",
       "      - name: Install\n        run: pnpm install --frozen-lockfile\n", "");
  auto r = review_ok();
  EXPECT_THAT(r.output, HasSubstr("Running pnpm recursive install..."));
  EXPECT_THAT(r.output, Not(HasSubstr("pnpm install --frozen-lockfile")));
  EXPECT_THAT(r.output, HasSubstr("# pass 2"));
  EXPECT_THAT(r.output, HasSubstr("# fail 0"));
}

// `corepack enable` instead of pnpm/action-setup (unjs's projects do this): the host fetches
// packageManager's pnpm for corepack's cache; the image's corepack, linked into the job's own
// directory, writes its shims there at that step, never earlier; pnpm then runs from the cache
// offline, and setup-node's `cache: pnpm` after it finds that pnpm as on CI.
TEST_F(FetchReview, CorepackEnablePutsPackageManagersPnpmOnPathFromTheStore) {
  use(kPnpmProject);
  edit(".github/workflows/ci.yml", kPnpmActionSetup,
       "      - run: \"! command -v pnpm\"\n      - run: corepack enable\n");
  auto r = review_ok();
  EXPECT_THAT(r.output,
              HasSubstr("review: package manager: pnpm 10.33.0 for corepack (package.json "
                        "packageManager): 0 hits, 1 miss, "));
  EXPECT_THAT(r.output, HasSubstr("verified against the registry's integrity and package.json's "
                                  "hash"));
  EXPECT_THAT(r.output, HasSubstr("reviewer: corepack's cache holds pnpm@10.33.0 from the "
                                  "review's dependency view"));
  EXPECT_THAT(r.output, HasSubstr("pnpm's store: /tmp/review/"));
  EXPECT_THAT(r.output, HasSubstr("Done in"));
  EXPECT_THAT(r.output, HasSubstr("using pnpm v10.33.0"));
  EXPECT_THAT(r.output, Not(HasSubstr("getaddrinfo")));
  EXPECT_THAT(r.output, HasSubstr("# pass 2"));
  EXPECT_THAT(r.output, HasSubstr("# fail 0"));
}

// unjs's line, `npm i -fg corepack && corepack enable`: a global install no lock names. The host
// resolves it now with the image's npm and fetches it; the step's own `npm install -g` installs it
// offline into the job's writable global prefix, replacing the image's corepack as on CI.
TEST_F(FetchReview, AGlobalInstallOfCorepackIsResolvedByTheHostAndInstalledOffline) {
  use(kPnpmProject);
  edit(".github/workflows/ci.yml", kPnpmActionSetup,
       "      - run: npm i -fg corepack && corepack enable && echo corepack-$(corepack --version)\n"
       "      - run: test \"$(command -v corepack)\" = \"$(npm prefix -g)/bin/corepack\"\n");
  auto r = review_ok();
  EXPECT_THAT(r.output, HasSubstr("review: global install: npm install -g corepack (a run step's; "
                                  "resolved at review time, as CI resolves it when the step "
                                  "runs): 1 tarballs ("));
  EXPECT_THAT(r.output, HasSubstr("changed 1 package"));
  EXPECT_THAT(r.output, Not(HasSubstr("corepack-0.35.0"))) << "the image's corepack still ran";
  EXPECT_THAT(r.output, HasSubstr("using pnpm v10.33.0"));
  EXPECT_THAT(r.output, HasSubstr("# pass 2"));
}

// A global install the registry cannot resolve is reported by the host and left out; the step
// then fails offline, and the review says the network was needed.
TEST_F(FetchReview, AGlobalInstallTheRegistryCannotResolveFailsTheStepOffline) {
  edit(".github/workflows/ci.yml", "      - name: Install\n",
       "      - run: npm install --global corepack@99.0.0\n      - name: Install\n");
  commit();
  auto r = review();
  EXPECT_EQ(r.last_line(), "review-build-failed: job 'test' step 2 'run' exited 1") << r.output;
  EXPECT_THAT(r.output, HasSubstr("review: global install: npm install -g corepack@99.0.0 not "
                                  "provided: dependency-resolution-failed: "));
  EXPECT_THAT(r.output, HasSubstr("reviewer: network: the sandbox has no network"));
}

// packageManager names yarn 1.22.19: before `corepack enable` the runner's 1.22.22 runs, after it
// corepack's shim runs 1.22.19 from corepack's cache, as on CI; the install and tests pass offline.
TEST_F(FetchReview, CorepackEnableSwitchesYarnToPackageManagersRelease) {
  use(kYarnProject);
  edit("package.json", "  \"license\": \"MIT\",\n",
       "  \"license\": \"MIT\",\n  \"packageManager\": \"yarn@1.22.19\",\n");
  edit(".github/workflows/ci.yml", "      - name: Install\n",
       "      - run: echo yarn-before-$(yarn --version)\n      - run: corepack enable\n"
       "      - run: echo yarn-after-$(yarn --version)\n      - name: Install\n");
  auto r = review_ok();
  EXPECT_THAT(r.output,
              HasSubstr("review: package manager: yarn 1.22.19 for corepack (package.json "
                        "packageManager): "));
  EXPECT_THAT(r.output, HasSubstr("reviewer: corepack's cache holds yarn@1.22.19"));
  EXPECT_THAT(r.output, HasSubstr("yarn-before-1.22.22"));
  EXPECT_THAT(r.output, HasSubstr("yarn-after-1.22.19"));
  EXPECT_THAT(r.output, HasSubstr("yarn install v1.22.19"));
  EXPECT_THAT(r.output, HasSubstr("# pass 3"));
  EXPECT_THAT(r.output, HasSubstr("# fail 0"));
}

// packageManager's corepack hash edited: refused on the host, before any sandbox exists.
TEST_F(FetchReview, APnpmHashThatIsNotTheTarballsIsRefusedBeforeAnySandbox) {
  use(kPnpmProject);
  edit("package.json", "+sha512.10568bb4", "+sha512.00000000");
  expect_refused_before_sandbox("package-manager-integrity-mismatch", "Mismatch hashes");
}

// A yarn.lock (yarn 1, written by yarn 1.22.22 from the npm registry: 19 blocks, resolved on
// registry.yarnpkg.com) and the runner's own yarn: the host fetches yarn@1.22.22 and the lock's
// tarballs (from registry.npmjs.org, verified by the lock's sha512) into the store; the launcher
// puts that yarn on the job's PATH and points yarn at the view's offline mirror;
// `yarn install --frozen-lockfile` and `yarn test` run offline. A second review fetches nothing.
TEST_F(FetchReview, AYarnProjectInstallsWithTheRunnersYarnAndASecondReviewFetchesNothing) {
  use(kYarnProject);
  commit();
  auto cold = review();
  EXPECT_EQ(cold.exit_code, 0) << cold.output;
  EXPECT_EQ(cold.last_line(), "review-build-ok") << cold.output;
  EXPECT_THAT(cold.output, HasSubstr("review: dependencies: yarn.lock: 19 tarballs ("));
  EXPECT_THAT(cold.output, HasSubstr("0 hits, 19 misses"));
  EXPECT_THAT(cold.output, HasSubstr("review: package manager: yarn 1.22.22 for the runner's "
                                     "preinstalled yarn (the worktree has yarn.lock): 0 hits, 1 "
                                     "miss, "));
  EXPECT_THAT(cold.output, HasSubstr("reviewer: yarn 1.22.22 (the runner's) on PATH"));
  // setup-node's `cache: yarn` asked the runner's yarn for its cache folder, as the action does.
  EXPECT_THAT(cold.output, HasSubstr("yarn 1.22.22's cache folder: /tmp/review/"));
  EXPECT_THAT(cold.output, HasSubstr("yarn cache is not found (a cold cache restores nothing)"));
  EXPECT_THAT(cold.output, HasSubstr("yarn install v1.22.22"));
  EXPECT_THAT(cold.output, HasSubstr("Fetching packages..."));
  EXPECT_THAT(cold.output, Not(HasSubstr("getaddrinfo")));
  EXPECT_THAT(cold.output, Not(HasSubstr("dependency-unpack")));
  EXPECT_THAT(cold.output, HasSubstr("# pass 3"));
  EXPECT_THAT(cold.output, HasSubstr("# fail 0"));
  EXPECT_EQ(containers_left_by(cold.output), 0) << "the sandbox was not removed";

  auto warm = review();
  EXPECT_EQ(warm.last_line(), "review-build-ok") << warm.output;
  EXPECT_THAT(warm.output, HasSubstr("19 hits, 0 misses, nothing downloaded"));
  EXPECT_THAT(warm.output, HasSubstr("(the worktree has yarn.lock): 1 hit, 0 misses, "));
  EXPECT_THAT(warm.output, HasSubstr("# pass 3"));
  std::smatch m;
  const std::regex times("review: dependencies: yarn.lock: .* in ([0-9.]+) s");
  const std::regex pm_times("review: package manager: yarn .* in ([0-9.]+) s");
  for (const auto* out : {&cold.output, &warm.output}) {
    if (std::regex_search(*out, m, times)) {
      std::cout << (out == &cold.output ? "cold" : "warm") << " lock fetch: " << m[1] << " s\n";
    }
    if (std::regex_search(*out, m, pm_times)) {
      std::cout << (out == &cold.output ? "cold" : "warm") << " yarn fetch: " << m[1] << " s\n";
    }
  }
}

// package.json asks for a range the lock has no key for: `yarn install --frozen-lockfile` would
// fail; the host says so before any sandbox exists.
TEST_F(FetchReview, AYarnLockOutOfSyncIsRefusedBeforeAnySandbox) {
  use(kYarnProject);
  edit("package.json", "\"commander\": \"^12.1.0\"", "\"commander\": \"^13.0.0\"");
  expect_refused_before_sandbox("dependency-lock-mismatch", "\"commander@^13.0.0\" is not a key");
}

// An integrity edited in yarn.lock: the registry's bytes do not match it, so nothing is stored and
// no sandbox is made.
TEST_F(FetchReview, AYarnIntegrityThatIsNotTheTarballsIsRefusedBeforeAnySandbox) {
  use(kYarnProject);
  edit("yarn.lock", "integrity sha512-6Flz", "integrity sha512-7Flz");
  expect_refused_before_sandbox("dependency-integrity-mismatch", "yarn.lock: \"ms@^2.1.3\"");
}

// yarn 2 and later: the host takes each registry package's sha512 from the registry's version
// document, fetches the tarballs into the store, and the launcher serves them on the sandbox's
// loopback, where yarn (the runner's 1.22.22, handing over to the project's yarnPath release)
// fetches them and checks its archives against the lock's checksums. A second review asks the
// registry nothing.
TEST_F(FetchReview,
       AYarnBerryProjectInstallsFromTheLoopbackRegistryAndASecondReviewFetchesNothing) {
  use_berry();
  auto cold = review_ok();
  EXPECT_THAT(cold.output, HasSubstr("review: dependencies: took the registry's integrity of 26 "
                                     "packages: 0 known, 26 version documents read in "));
  EXPECT_THAT(cold.output, HasSubstr("review: dependencies: yarn.lock: 26 tarballs ("));
  EXPECT_THAT(cold.output, HasSubstr("0 hits, 26 misses"));
  EXPECT_THAT(cold.output, HasSubstr("reviewer: yarn 1.22.22 (the runner's) on PATH"));
  EXPECT_THAT(cold.output, HasSubstr("Yarn 4.18.1"));
  EXPECT_THAT(cold.output, HasSubstr("YN0000: · Done"));
  EXPECT_THAT(cold.output, Not(HasSubstr("YN0081")));  // plain HTTP refused
  EXPECT_THAT(cold.output, Not(HasSubstr("YN0018")));  // a checksum mismatch
  EXPECT_THAT(cold.output, HasSubstr("# pass 3"));
  EXPECT_THAT(cold.output, HasSubstr("# fail 0"));
  EXPECT_EQ(containers_left_by(cold.output), 0) << "the sandbox was not removed";
  auto warm = review();
  EXPECT_EQ(warm.last_line(), "review-build-ok") << warm.output;
  EXPECT_THAT(warm.output, HasSubstr("took the registry's integrity of 26 packages: 26 known, 0 "
                                     "version documents read in "));
  EXPECT_THAT(warm.output, HasSubstr("26 hits, 0 misses, nothing downloaded"));
  EXPECT_THAT(warm.output, HasSubstr("# pass 3"));
  std::smatch m;
  const std::regex pin_times(
      "review: dependencies: took the registry's integrity .* in ([0-9.]+) s");
  const std::regex times("review: dependencies: yarn.lock: .* in ([0-9.]+) s");
  for (const auto* out : {&cold.output, &warm.output}) {
    const char* which = out == &cold.output ? "cold" : "warm";
    if (std::regex_search(*out, m, pin_times)) {
      std::cout << which << " integrity: " << m[1] << " s\n";
    }
    if (std::regex_search(*out, m, times)) {
      std::cout << which << " tarballs: " << m[1] << " s\n";
    }
  }
}

// yarn 2 and later by corepack, without a committed release: the host fetches the registry's
// @yarnpkg/cli-dist, the launcher keeps its bin/yarn.js in corepack's cache held to
// packageManager's sha512 of it, and after `corepack enable` yarn 4.18.1 installs offline.
TEST_F(FetchReview, CorepackEnableRunsYarn4FromTheStoreHeldToPackageManagersHash) {
  use(kBerryProject);
  edit(".yarnrc.yml", "yarnPath: .yarn/releases/yarn-4.18.1.cjs\n", "");
  edit("package.json", "\"yarn@4.18.1\"",
       "\"yarn@4.18.1+sha512.b2e1e7524f654f2749d32b4ebcb4622473cb5bcbc485df2007e12a154e50162a4d795"
       "526768bc5f5b8f81717bfd79deb2472813d86fb5ae2eb551fa9c872b08f\"");
  edit(".github/workflows/ci.yml", "          cache: yarn\n", "");
  edit(".github/workflows/ci.yml", "      - name: Install\n",
       "      - run: corepack enable\n      - name: Install\n");
  auto r = review_ok();
  EXPECT_THAT(r.output, HasSubstr("review: package manager: yarn 4.18.1 for corepack (package.json "
                                  "packageManager): "));
  EXPECT_THAT(r.output, HasSubstr("(package.json's hash is held to its yarn.js in the sandbox)"));
  EXPECT_THAT(r.output, HasSubstr("reviewer: corepack's cache holds yarn@4.18.1"));
  EXPECT_THAT(r.output, HasSubstr("Yarn 4.18.1"));
  EXPECT_THAT(r.output, HasSubstr("# pass 3"));
  EXPECT_THAT(r.output, HasSubstr("# fail 0"));
}

// A checksum edited in the Berry lock: the registry's integrity still pins the download, and yarn
// in the sandbox finds its archive is not the lock's, as on CI: the install step fails.
TEST_F(FetchReview, ABerryChecksumThatIsNotTheArchivesFailsTheInstallInTheSandbox) {
  use_berry();
  edit("yarn.lock", "checksum: 10c0/", "checksum: 10c0/0");
  commit();
  auto r = review();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-failed")) << r.output;
  EXPECT_THAT(r.output, HasSubstr("YN0018"));
  EXPECT_THAT(r.output, HasSubstr("[test #3 Install] failed"));
}

// A git source in the Berry lock is refused by name before any sandbox exists.
TEST_F(FetchReview, ABerryGitDependencyIsRefusedBeforeAnySandbox) {
  use(kBerryProject);
  edit("yarn.lock", "resolution: \"ms@npm:2.1.3\"",
       "resolution: "
       "\"ms@https://github.com/vercel/ms.git#commit=1304f150b38027e0f8a1ef5f8ede38a1bcf86b2f\"");
  expect_refused_before_sandbox("dependency-source-refused",
                                "resolves to \"ms@https://github.com/vercel/ms.git#commit=");
}

// A real install that needs the network: `yarn add` of a package the lock does not have fails in
// the sandbox as it cannot on CI, and the launcher says the step appears to have needed the
// network; the verdict is the step's failure, unchanged.
TEST_F(FetchReview, AStepThatNeededTheNetworkIsDiagnosedAndStillFails) {
  use(kYarnProject);
  edit(".github/workflows/ci.yml", "run: yarn test", "run: yarn add left-pad@1.3.0");
  commit();
  auto r = review();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-failed")) << r.output;
  EXPECT_THAT(r.output, HasSubstr("[test #4 Test] failed: exited 1"));
  EXPECT_THAT(r.output, HasSubstr("reviewer: network: the sandbox has no network, and step "
                                  "[test #4 Test] appears to have needed it: its output shows a "
                                  "network access (\""));
  EXPECT_THAT(r.output, Not(HasSubstr("[test #3 Install] appears to have needed it")));
}

}  // namespace
}  // namespace reviewer::image_test

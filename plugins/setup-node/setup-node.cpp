// actions/setup-node: skipped when the step asks for a node version or range, written in
// `node-version` or read from `node-version-file` with the action's own rules (node_version_file.h,
// over the host's repository files), which becomes a pin the image's node must satisfy (the
// resolver selects the image by it and the launcher verifies it), and when nothing else the step
// does (registry auth files, mirrors) is in play. An npm cache, asked for or automatic, restores
// nothing on a cold run: it is skipped when the lock file the action looks for exists, and fails
// the step as the action does when it does not. See README.md for the review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/plugin.hpp>
#include <reviewer/sdk/requested_version.hpp>

#include <array>
#include <string>
#include <vector>

#include "node_version_file.h"

namespace {

namespace js = reviewer::sdk::js;

constexpr reviewer::sdk::Claim kClaim{"actions/setup-node",
                                      {
                                          {"820762786026740c76f36085b0efc47a31fe5020", "v7.0.0"},
                                          {"249970729cb0ef3589644e2896645e5dc5ba9c38", "v6.5.0"},
                                          {"48b55a011bda9f5d6aeb4c2d9c7362e8dae4041e", "v6.4.0"},
                                          {"53b83947a5a98c8d113130e565377fae1a50d02f", "v6.3.0"},
                                          {"6044e13b5dc448c55e2357c09f80417699197238", "v6.2.0"},
                                          {"395ad3262231945c25e8478fd5baf05154b1d79f", "v6.1.0"},
                                          {"2028fbc5c25fe9cf00d9f06a71cc4710d4507903", "v6.0.0"},
                                          {"a0853c24544627f65ddf259abe73b1d18a591444", "v5.0.0"},
                                          {"49933ea5288caeca8642d1e84afbd3f7d6820020", "v4.4.0"},
                                          {"3235b876344d2a9aa001b8d1453c930bba69e610", "v3.9.1"},
                                      },
                                      "2026-12-02"};

bool is_v3(std::string_view tag) { return tag.starts_with("v3."); }
// always-auth was removed in v6; package-manager-cache (automatic caching) arrived in v5; mirror
// and mirror-token in v4.
bool has_always_auth(std::string_view tag) {
  return tag == "v5.0.0" || tag == "v4.4.0" || tag == "v3.9.1";
}
bool has_package_manager_cache(std::string_view tag) { return tag != "v4.4.0" && !is_v3(tag); }
bool has_mirror(std::string_view tag) { return !is_v3(tag); }
// getNodeVersionFromFile reads package.json's devEngines.runtime from v6.3.0 on.
bool reads_dev_engines(std::string_view tag) {
  return tag == "v7.0.0" || tag == "v6.5.0" || tag == "v6.4.0" || tag == "v6.3.0";
}

bool is_x64(std::string_view v) { return v == "x64"; }

// The nightly, v8-canary and rc distributions the action picks for any spec containing those
// words (installer-factory.ts): builds outside the matrix, not reproducible. The LTS aliases and
// latest/current/node (official_builds.ts) are pinned as written: the host resolves them to a
// release line with the trusted matrix's schedule (core/resolve/node_schedule.h).
bool is_other_distribution(std::string_view v) {
  return v.find("nightly") != v.npos || v.find("v8-canary") != v.npos || v.find("rc") != v.npos;
}

// "X.Y.Z" with an optional "v": one version; anything else the action reads as a semver range
// (22, 22.x, ^22.1, >=20 <23), which the core validates and the image's node must satisfy.
std::string pin_value(std::string_view v) {
  return std::string(v.starts_with("v") && v.size() > 1 && v[1] >= '0' && v[1] <= '9' ? v.substr(1)
                                                                                      : v);
}

// The caches the review reproduces: npm's; pnpm's once a pnpm/action-setup step has put pnpm on
// the PATH; yarn's with the runner's yarn 1, which the launcher puts on every job's PATH when the
// worktree has a yarn.lock (the action asks the package manager for its cache folder first and
// fails without it, as the review does).
bool is_reproduced_cache(std::string_view v) { return v == "npm" || v == "pnpm" || v == "yarn"; }

// The files setup-node's npm cache looks for at the top of the worktree (cache-utils.ts).
constexpr std::array<std::string_view, 3> kNpmLockFiles = {"package-lock.json",
                                                           "npm-shrinkwrap.json", "yarn.lock"};

// pnpm's and yarn's (cache-utils.ts).
constexpr std::array<std::string_view, 1> kPnpmLockFiles = {"pnpm-lock.yaml"};
constexpr std::array<std::string_view, 1> kYarnLockFiles = {"yarn.lock"};

// A literal path: cache-dependency-path globs are matched by the action's own rules.
bool is_literal_path(std::string_view v) {
  return !v.empty() && v.find_first_of("*?[]{}!") == v.npos && !v.starts_with("/") &&
         v.find("..") == v.npos;
}

// Every input is read with getInput, which trims it first.
const auto kInputs = reviewer::sdk::read_by_get_input(std::array{
    reviewer::sdk::any_value("node-version"),       // checked below: it becomes the pin
    reviewer::sdk::any_value("node-version-file"),  // read by the host, then as node-version
    reviewer::sdk::accepted("architecture", &is_x64, "x64 (the image's node)"),
    // `true` (any case) takes the newest release of the spec from the manifest instead of the
    // tool cache's; any other value is false. Both are a release of the line the pin selects,
    // and a range spanning lines is refused by the resolver either way (README, "Inputs").
    reviewer::sdk::any_value("check-latest"),
    reviewer::sdk::refused("registry-url", "it writes an .npmrc with registry authentication"),
    reviewer::sdk::any_value("scope"),  // read only together with registry-url
    reviewer::sdk::only_at(reviewer::sdk::any_value("always-auth"), &has_always_auth),
    reviewer::sdk::refused("token", "the review has no credentials"),
    reviewer::sdk::accepted("cache", &is_reproduced_cache,
                            "npm or pnpm (yarn's cache runs yarn, which the review does not "
                            "provide)"),
    reviewer::sdk::only_at(
        reviewer::sdk::accepted("package-manager-cache", &reviewer::sdk::is_loose_boolean,
                                "true or false"),
        &has_package_manager_cache),
    reviewer::sdk::accepted("cache-dependency-path", &is_literal_path,
                            "one literal path inside the worktree (globs are not reviewed)"),
    reviewer::sdk::only_at(
        reviewer::sdk::refused("mirror", "the review has no network and downloads nothing"),
        &has_mirror),
    reviewer::sdk::only_at(reviewer::sdk::refused("mirror-token", "the review has no credentials"),
                           &has_mirror),
});

// What the step's cache needs at build time: nothing, the npm lock file (cache: npm), the same
// only if package.json names npm as its package manager (automatic caching, v5+), or pnpm on the
// PATH and pnpm's lock file (cache: pnpm).
enum class CacheCheck { kNone, kLockFile, kIfPackageManagerIsNpm, kPnpm, kYarn };

CacheCheck cache_check(const reviewer::sdk::StepView& step, std::string_view tag) {
  const auto cache = step.inputs().find("cache");
  if (const std::string_view value = cache ? js::trim(cache->value) : ""; !value.empty()) {
    return value == "pnpm"   ? CacheCheck::kPnpm
           : value == "yarn" ? CacheCheck::kYarn
                             : CacheCheck::kLockFile;
  }
  auto automatic = step.inputs().find("package-manager-cache");
  if (has_package_manager_cache(tag) &&
      !(automatic && reviewer::sdk::is_loose_false(js::trim(automatic->value)))) {
    return CacheCheck::kIfPackageManagerIsNpm;
  }
  return CacheCheck::kNone;
}

// package.json's "packageManager" names npm ("npm@11.2.0"): a light scan of the one field the
// action reads, enough to tell npm from another manager; anything unclear counts as npm, so the
// lock file is required as the action would require it.
bool package_manager_may_be_npm(const std::string& package_json) {
  const auto key = package_json.find("\"packageManager\"");
  if (key == std::string::npos) {
    return package_json.find("\"devEngines\"") != std::string::npos;
  }
  const auto quote = package_json.find('"', package_json.find(':', key) + 1);
  return quote == std::string::npos || package_json.compare(quote + 1, 4, "npm@") == 0;
}

// The version the step asks for: `node-version`, or what `node-version-file` gives (the action
// reads the file only without a `node-version`), with where it is written.
using Requested = reviewer::sdk::RequestedVersion;

// Reads what the step asks for, or refuses (false). Neither input given (or both empty): the
// action installs nothing and the job runs the runner's preinstalled node; `out.spec` is then
// empty, the step pins nothing, and the planner pins the job to the runner's default Node.
bool requested(const reviewer::sdk::StepView& step, std::string_view tag,
               reviewer::sdk::PlanDecision& decision, Requested& out) {
  const auto input = step.inputs().find("node-version");
  const auto file = step.inputs().find("node-version-file");
  if (input && !input->value.empty()) {
    out = Requested::from_input(*input, "node-version");
    return true;
  }
  if (!file || file->value.empty()) {
    out = {};
    return true;
  }
  const setup_node::NodeFileRules rules = reads_dev_engines(tag)
                                              ? setup_node::NodeFileRules::kDevEngines
                                          : is_v3(tag) ? setup_node::NodeFileRules::kV3
                                                       : setup_node::NodeFileRules::kV4;
  return reviewer::sdk::read_requested_version(
      decision, *file, "actions/setup-node", "node-version-file", "node-version",
      "(the action warns \"Could not determine node version\" and uses the runner's preinstalled "
      "node); write a version or a range such as 22.x in it",
      [rules](const reviewer::sdk::NamedFile& named, const reviewer::sdk::RepositoryReader& read) {
        return setup_node::read_node_version_file(named, rules, read);
      },
      out);
}

class SetupNode final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    const auto tag = kClaim.tag_of(step.ref());
    bool ok = reviewer::sdk::check_inputs(step, kInputs, decision, kClaim);
    Requested want;
    if (!requested(step, tag, decision, want)) {
      return;
    }
    if (!want.spec.empty() && is_other_distribution(want.spec)) {
      decision.refuse("runtime-version-not-exact",
                      "actions/setup-node " + want.source +
                          (want.from_file ? " gives '" : " is '") +
                          reviewer::sdk::printable(want.spec) +
                          "'; nightly, rc and canary builds come from other distributions than "
                          "the matrix's; write a version, a range such as 22.x or lts/*",
                      want.where());
      ok = false;
    }
    if (!ok) {
      return;
    }
    const std::string version = pin_value(want.spec);
    const auto latest = step.inputs().find("check-latest");
    const bool newest =
        latest && reviewer::sdk::equals_ignoring_case(js::trim(latest->value), "true");
    if (!version.empty() && newest) {
      decision.pin("node", version, want.where());  // the newest release of the spec
    } else if (!version.empty()) {
      // The action's `tc.find` answers first: the runner's highest cached Node of the spec.
      decision.pin_from_tool_cache("node", version, want.where());
    }
    const auto file = step.inputs().find("node-version-file");
    const bool ignored_file = !want.from_file && file && !file->value.empty();
    const CacheCheck check = cache_check(step, tag);
    if (check == CacheCheck::kPnpm || check == CacheCheck::kYarn) {
      // Not a skip: the action runs the package manager, and so does the review.
      decision.run();
      return;
    }
    decision.skip(
        (version.empty()
             ? std::string("no node version is asked for: the action installs none and "
                           "the job runs the runner's preinstalled node, which the "
                           "planner pins as the runner's default; ")
             : "node " + version + (want.from_file ? " (" + want.where_text() + ")" : "") +
                   " is the image's node (pinned; the launcher verifies it); ") +
        (ignored_file ? "'node-version-file' is ignored, as the action ignores it (with a "
                        "warning); "
                      : "") +
        (check == CacheCheck::kNone
             ? std::string("no registry, cache or mirror is configured")
             : std::string("the npm cache restores nothing on a cold run, and its lock "
                           "file is checked at build time")));
  }

  void execute(const reviewer::sdk::StepView& step, reviewer::sdk::Services& services) override {
    auto input = step.inputs().find("node-version");
    auto file = step.inputs().find("node-version-file");
    const bool from_file = (!input || input->value.empty()) && file && !file->value.empty();
    if (!from_file && input && file && !file->value.empty()) {
      // The action's own warning, word for word.
      services.log(
          "warning: Both node-version and node-version-file inputs are specified, only "
          "node-version will be used");
    }
    const std::string version =
        from_file ? "from " + std::string(file->value)
        : input && !input->value.empty()
            ? std::string(input->value)
            : std::string("(none asked: the runner's preinstalled node, the job's pin)");
    const CacheCheck check = cache_check(step, kClaim.tag_of(step.ref()));
    if (check == CacheCheck::kPnpm) {
      // restoreCache's order: the cache folder from pnpm first (which fails without pnpm),
      // then the lock file; a cold cache then restores nothing.
      if (!pnpm_store_path(services) || !lock_file_present(step, services, kPnpmLockFiles)) {
        return;
      }
      services.log("actions/setup-node: node " + version +
                   " is the image's node, pinned at plan time and verified by the launcher; "
                   "pnpm cache is not found (a cold cache restores nothing)");
      return;
    }
    if (check == CacheCheck::kYarn) {
      // The host allows one script per step: the lock file is checked before yarn is asked, not
      // after as the action does; both fail the step.
      if (!lock_file_present(step, services, kYarnLockFiles) ||
          !yarn_cache_folder(step, services)) {
        return;
      }
      services.log("actions/setup-node: node " + version +
                   " is the image's node, pinned at plan time and verified by the launcher; "
                   "yarn cache is not found (a cold cache restores nothing)");
      return;
    }
    if (check == CacheCheck::kIfPackageManagerIsNpm) {
      auto pkg = services.read_worktree_file("package.json");
      if (pkg.status == reviewer::sdk::Services::FileStatus::kRefused) {
        services.fail("setup-node-cache-unchecked",
                      "package.json cannot be read to tell whether the action caches npm");
        return;
      }
      if (kClaim.tag_of(step.ref()) == "v5.0.0" &&
          pkg.status == reviewer::sdk::Services::FileStatus::kRead &&
          pkg.text.find("\"packageManager\"") != std::string::npos &&
          !package_manager_may_be_npm(pkg.text)) {
        // v5.0.0 also caches yarn and pnpm on its own, which runs them: not reproduced.
        services.fail("setup-node-cache-unchecked",
                      "actions/setup-node v5.0.0 caches the yarn or pnpm package.json names, "
                      "which the review does not reproduce; add 'package-manager-cache: false'");
        return;
      }
      if (pkg.status == reviewer::sdk::Services::FileStatus::kMissing ||
          !package_manager_may_be_npm(pkg.text)) {
        services.log("actions/setup-node skipped: node " + version +
                     " is the image's node; package.json names no npm package manager, so the "
                     "action caches nothing");
        write_outputs(services, false);
        return;
      }
    }
    if (check != CacheCheck::kNone && !lock_file_present(step, services, kNpmLockFiles)) {
      return;
    }
    services.log("actions/setup-node skipped: node " + version +
                 " is the image's node, pinned at plan time and verified by the launcher" +
                 (check == CacheCheck::kNone ? "" : "; the npm cache would restore nothing"));
    write_outputs(services, check != CacheCheck::kNone);
  }

 private:
  // The action's printEnvDetailsAndSetOutput, before any cache: `node-version` is what
  // `node --version` prints for the node now on PATH (the image's, which the pin selected), ''
  // when that fails.
  static constexpr std::string_view kNodeVersionOutput = R"SH(
printf 'node-version=%s\n' "$(node --version 2>/dev/null)" >> "$GITHUB_OUTPUT"
)SH";
  // restoreCache's `cache-hit` on the cold miss the review stands for. Its keys (v7's
  // cache-primary-key, a hash of the lock CI computes, and cache-matched-key) are not written:
  // an expression reading them is refused (docs/fidelity.md, "Steps' outputs").
  static constexpr std::string_view kColdCacheOutput = R"SH(
printf 'cache-hit=false\n' >> "$GITHUB_OUTPUT"
)SH";
  // Without a cache the action leaves `cache-hit` unset, which an expression reads as ''.
  static constexpr std::string_view kNoCacheOutput = R"SH(
printf 'cache-hit=\n' >> "$GITHUB_OUTPUT"
)SH";

  static void write_outputs(reviewer::sdk::Services& services, bool cached) {
    reviewer::sdk::RunRequest request;
    const std::string script =
        std::string(kNodeVersionOutput) + std::string(cached ? kColdCacheOutput : kNoCacheOutput);
    request.script = script;
    services.run_script(request);
  }

  // The action's getCacheFolderPath for pnpm: `pnpm store path --silent` run in the workspace,
  // whose failure fails the step (pnpm missing: "Unable to locate executable file: pnpm"), as
  // does an empty answer ("Could not get pnpm cache folder path").
  static bool pnpm_store_path(reviewer::sdk::Services& services) {
    reviewer::sdk::RunRequest request;
    const std::string script = std::string(kNodeVersionOutput) + std::string(kPnpmStorePath) +
                               std::string(kColdCacheOutput);
    request.script = script;
    return services.run_script(request) == 0;
  }
  static constexpr std::string_view kPnpmStorePath = R"SH(
if ! command -v pnpm >/dev/null; then
  echo "Unable to locate executable file: pnpm (actions/setup-node fails the same way: cache: pnpm needs pnpm on the PATH, from an earlier pnpm/action-setup step)"
  exit 1
fi
store=$(pnpm store path --silent) || exit $?
if [ -z "$store" ]; then
  echo "Could not get pnpm cache folder path"
  exit 1
fi
echo "pnpm's store: $store"
)SH";

  // The action's getCacheFolderPath for yarn: `yarn --version`, then `yarn cache dir` (yarn 1) or
  // `yarn config get cacheFolder`, in the directory of a literal cache-dependency-path or the
  // workspace, then its check for Berry's local cache; a failing command or an empty answer fails
  // the step.
  static bool yarn_cache_folder(const reviewer::sdk::StepView& step,
                                reviewer::sdk::Services& services) {
    std::string dir;
    const auto path = step.inputs().find("cache-dependency-path");
    if (const std::string_view value = path ? js::trim(path->value) : ""; !value.empty()) {
      const auto slash = value.rfind('/');
      dir = slash == std::string_view::npos ? std::string() : std::string(value.substr(0, slash));
    }
    reviewer::sdk::RunRequest request;
    request.working_directory = dir;
    const std::string script = std::string(kNodeVersionOutput) + std::string(kYarnCacheFolder) +
                               std::string(kColdCacheOutput);
    request.script = script;
    return services.run_script(request) == 0;
  }
  static constexpr std::string_view kYarnCacheFolder = R"SH(
if ! command -v yarn >/dev/null; then
  echo "Unable to locate executable file: yarn (actions/setup-node fails the same way; the review puts the runner's yarn on the PATH when the worktree has a yarn.lock)"
  exit 1
fi
version=$(yarn --version) || exit $?
if [ -z "$version" ]; then
  echo "Could not retrieve version of yarn"
  exit 1
fi
case "$version" in
  1.*) folder=$(yarn cache dir) || exit $? ;;
  *) folder=$(yarn config get cacheFolder) || exit $? ;;
esac
if [ -z "$folder" ]; then
  echo "Could not get yarn cache folder path for $PWD"
  exit 1
fi
echo "yarn $version's cache folder: $folder"
# repoHasYarnBerryManagedDependencies, in the workspace: without a .yarn/cache directory the
# action asks `yarn config get enableGlobalCache` (yarn 1 answers "undefined").
cd "$GITHUB_WORKSPACE" || exit 1
if [ ! -d .yarn/cache ]; then
  yarn config get enableGlobalCache >/dev/null || exit $?
fi
)SH";

  // The action fails a cache step without the lock file it looks for; so does the review.
  template <std::size_t N>
  static bool lock_file_present(const reviewer::sdk::StepView& step,
                                reviewer::sdk::Services& services,
                                const std::array<std::string_view, N>& lock_files) {
    std::vector<std::string> candidates;
    const auto path = step.inputs().find("cache-dependency-path");
    if (const std::string_view value = path ? js::trim(path->value) : ""; !value.empty()) {
      candidates.emplace_back(value);
    } else {
      candidates.assign(lock_files.begin(), lock_files.end());
    }
    std::string names;
    for (const auto& c : candidates) {
      auto file = services.read_worktree_file(c);
      if (file.status == reviewer::sdk::Services::FileStatus::kRead) {
        return true;
      }
      names += (names.empty() ? "" : ",") + c;
    }
    services.fail("setup-node-lock-missing",
                  "Dependencies lock file is not found in the worktree. Supported file patterns: " +
                      names + " (the action fails the step the same way)");
    return false;
  }
};

}  // namespace

REVIEWER_PLUGIN(SetupNode, kClaim);

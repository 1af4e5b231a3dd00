#include "core/deps/provision/provisioner.h"

#include <sys/stat.h>

#include <utility>

#include "core/contract/view_layout.h"
#include "core/deps/provision/bun_cache_seed.h"
#include "core/deps/provision/corepack_cache_seed.h"
#include "core/deps/provision/global_prefix.h"
#include "core/deps/provision/npm_cache_seed.h"
#include "core/deps/provision/npm_config_registry.h"
#include "core/deps/provision/runner_yarn.h"
#include "core/semver/js_text.h"

namespace reviewer::deps {
namespace {

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string find_dependency_view() {
  const std::string view = contract::kDependencyMount;
  return is_directory(view) && is_directory(view + "/_cacache") ? view : "";
}

Provisioner::Provisioner(std::string view, std::string corepack,
                         const std::vector<plugins::RuntimePin>& pins, Log log)
    : view_(std::move(view)), corepack_(std::move(corepack)), log_(std::move(log)) {
  // The view's file: registry, when the host placed a pnpm lock's tarballs in it; served over
  // HTTP too for the whole build, since pnpm 11 and yarn 2 and later install only from one.
  const std::string registry_dir = view_ + "/" + contract::kRegistryDir;
  const std::string file_registry =
      !view_.empty() && is_directory(registry_dir) ? "file://" + registry_dir + "/" : "";
  if (!file_registry.empty()) {
    auto serving = LoopbackRegistry::start(registry_dir);
    if (serving) {
      http_ = std::move(*serving);
      http_url_ = http_->url();
    } else {
      log_("reviewer: " + serving.error().to_string());
    }
  }
  npm_registry_ = npm_config_registry(pins, file_registry, http_url_);
}

util::Result<JobProvision> Provisioner::prepare(const exec::JobDirs& dirs) {
  JobProvision job;
  JobTools tools{"", npm_registry_, http_url_, "", ""};
  if (!view_.empty()) {
    auto seeded = seed_npm_cache(view_, dirs.cache);
    if (!seeded) {
      return seeded.refusals();
    }
    tools.npm_cache = *seeded;
  }
  tools.npm_prefix = global_prefix(dirs, job);
  if (!view_.empty()) {
    // Bun reads only unpacked folders from its cache; each job's fresh cache gets them from the
    // view. A package that cannot be unpacked is named here, and `bun install` fails offline.
    if (auto seeded = seed_bun_cache(view_, dirs.cache + "/bun"); !seeded) {
      log_("reviewer: " + seeded.error().rule + ": " + seeded.error().message);
    }
    // The runner has yarn 1 on PATH from the first step, after the setup actions' directories
    // (/usr/local/bin/yarn); the job gets the same release, unpacked into its own scratch.
    auto yarn = unpack_runner_yarn(view_, dirs.root + "/yarn");
    if (!yarn) {
      log_("reviewer: " + yarn.error().rule + ": " + yarn.error().message);
    } else if (!yarn->empty()) {
      job.path_last.push_back(*yarn);
      tools.yarn_mirror = yarn_offline_mirror(view_);
      log_("reviewer: yarn " + std::string(contract::kRunnerYarnVersion) +
           " (the runner's) on PATH from the review's dependency view (verified by the host): " +
           *yarn);
    }
  }
  job.settings = tool_settings(tools, dirs);
  return job;
}

// npm's global prefix as the runner has it: writable, first on PATH with node, holding corepack
// (so `corepack enable` and `npm install -g` write there, at their steps, never earlier); and
// packageManager's release in corepack's cache, where CI's corepack puts what it downloads. A
// failure is logged; the prefix, or the release, is then missing as it would be on a runner
// without it. Returns the prefix, "" when there is none.
std::string Provisioner::global_prefix(const exec::JobDirs& dirs, JobProvision& job) {
  const std::string prefix = dirs.root + "/npm-global";
  auto bin = make_global_prefix(prefix, corepack_);
  if (!bin) {
    log_("reviewer: " + bin.error().to_string());
    return "";
  }
  job.path_first.push_back(*bin);
  if (!corepack_.empty() && !view_.empty()) {
    auto seeded = seed_corepack_cache(view_, dirs.cache + "/node/corepack");
    if (!seeded) {
      log_("reviewer: " + seeded.error().to_string());
    } else if (!seeded->empty()) {
      log_("reviewer: corepack's cache holds " + js::join(*seeded, ", ") +
           " from the review's dependency view (verified by the host)");
    }
  }
  return prefix;
}

}  // namespace reviewer::deps

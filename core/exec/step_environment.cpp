#include "core/exec/step_environment.h"

#include <map>

#include "core/workflow/env_policy.h"

namespace reviewer::exec {

BuiltEnvironment build_step_environment(const RunnerContext& ctx, const StepFiles& files,
                                        const std::vector<workflow::Entry>& workflow_env,
                                        const std::vector<workflow::Entry>& github_env,
                                        const std::vector<std::string>& github_path,
                                        const std::vector<workflow::Entry>& step_env) {
  BuiltEnvironment out;
  std::string path;
  // GITHUB_PATH entries are prepended in the order they were added: the newest first.
  for (auto it = github_path.rbegin(); it != github_path.rend(); ++it) {
    path += *it + ":";
  }
  for (const auto& dir : ctx.runtime_path) {
    path += dir + ":";
  }
  path += kSystemPath;

  std::map<std::string, std::string> env{
      {"PATH", path},
      {"HOME", ctx.dirs.home},
      {"TMPDIR", ctx.dirs.tmp},
      {"XDG_CACHE_HOME", ctx.dirs.cache},
      {"XDG_CONFIG_HOME", ctx.dirs.home + "/.config"},
      {"npm_config_cache", ctx.dirs.cache + "/npm"},
      {"BUN_INSTALL_CACHE_DIR", ctx.dirs.cache + "/bun"},
      {"LANG", "C.UTF-8"},
      {"CI", "true"},
      {"GITHUB_ACTIONS", "true"},
      {"GITHUB_WORKSPACE", ctx.workspace},
      {"GITHUB_EVENT_NAME", "pull_request"},
      {"GITHUB_BASE_REF", ctx.base_ref},
      {"GITHUB_JOB", ctx.job_id},
      {"GITHUB_OUTPUT", files.output},
      {"GITHUB_ENV", files.env},
      {"GITHUB_PATH", files.path},
      {"GITHUB_STEP_SUMMARY", files.summary},
      {"RUNNER_OS", "Linux"},
      {"RUNNER_ARCH", "X64"},
      {"RUNNER_TEMP", ctx.dirs.runner_temp},
      {"RUNNER_ENVIRONMENT", "github-hosted"},
  };
  if (!ctx.action_path.empty()) {
    env["GITHUB_ACTION_PATH"] = ctx.action_path;
  }
  auto apply = [&](const std::vector<workflow::Entry>& entries, const char* origin) {
    for (const auto& e : entries) {
      if (auto verdict = workflow::check_env_entry(e.name, e.value)) {
        out.refusals.push_back(
            {verdict->rule, std::string(origin) + " env '" + e.name + "' " + verdict->reason,
             e.location.file.empty() ? std::nullopt : std::optional(e.location)});
        continue;
      }
      env[e.name] = e.value;
    }
  };
  apply(workflow_env, "workflow/job");
  apply(github_env, "GITHUB_ENV");
  apply(step_env, "step");
  if (!ctx.dependency_cache.empty()) {
    // npm ci reads each tarball from the cache by the lock's integrity, so the install is the
    // one CI makes (the job's own writable copy of the host's view,
    // deps/provision/npm_cache_seed.h); offline turns a request the cache cannot answer into an
    // immediate ENOTCACHED instead of minutes of retries; the logs go where npm would write them
    // (docs/fidelity.md, "Dependencies").
    env["npm_config_cache"] = ctx.dependency_cache;
    // Not with the loopback as the registry (a plan of pnpm 8,
    // deps/provision/npm_config_registry.h): pnpm 8 reads the name too and then refuses to fetch
    // even from the loopback (ERR_PNPM_NO_OFFLINE_TARBALL, measured with 8.15.9); a request npm's
    // cache cannot answer then goes to the loopback, which answers at once.
    if (!ctx.dependency_registry.starts_with("http://")) {
      env["npm_config_offline"] = "true";
    }
    env["npm_config_logs_dir"] = ctx.dirs.cache + "/npm/_logs";
  }
  if (!ctx.dependency_registry.empty()) {
    // pnpm derives each tarball's URL from the registry and the lock's name and version, then
    // verifies it against the lock's integrity; the view's file: registry serves exactly the
    // bytes CI downloads (docs/fidelity.md, "Dependencies"). npm reads its cache by integrity
    // first, so the setting does not change what npm ci installs.
    env["npm_config_registry"] = ctx.dependency_registry;
  }
  if (!ctx.http_registry.empty()) {
    // pnpm 11 and later read only pnpm_config_* settings and install only from an HTTP
    // registry; they ask it for each locked package's metadata, then fetch the tarball and check
    // it against the lock's integrity as from the registry CI uses. pnpm 10 and earlier ignore
    // the name (docs/fidelity.md, "pnpm 11").
    env["pnpm_config_registry"] = ctx.http_registry;
    // yarn 2 and later fetch each locked package's tarball from npmRegistryServer (these YARN_
    // settings win over the project's .yarnrc.yml) and check the archive they make of it against
    // the lock's checksum; they refuse plain HTTP to a host not on the whitelist (YN0081).
    // yarn 1 reads neither name (docs/fidelity.md, "Yarn 2 and later").
    std::string server = ctx.http_registry;
    while (server.ends_with("/")) {
      server.pop_back();
    }
    env["YARN_NPM_REGISTRY_SERVER"] = server;
    env["YARN_UNSAFE_HTTP_WHITELIST"] = "127.0.0.1";
  }
  if (!ctx.npm_prefix.empty()) {
    // The runner's global prefix is writable (/usr/local, or setup-node's tool directory); the
    // image's node directory is not, so `npm install -g` goes to the job's own prefix, first on
    // PATH as the runner's is with node (docs/fidelity.md, "Global installs").
    env["npm_config_prefix"] = ctx.npm_prefix;
  }
  if (!ctx.yarn_mirror.empty()) {
    // yarn 1 takes `yarn-offline-mirror` from YARN_* over any .yarnrc or .npmrc, finds each
    // tarball of the lock there by its file name, and checks it against the lock's integrity as
    // it would a download; the rest of yarn's settings stay the project's (docs/fidelity.md,
    // "Yarn").
    env["YARN_YARN_OFFLINE_MIRROR"] = ctx.yarn_mirror;
  }
  for (const auto& [k, v] : env) {
    out.entries.push_back(k + "=" + v);
  }
  return out;
}

}  // namespace reviewer::exec

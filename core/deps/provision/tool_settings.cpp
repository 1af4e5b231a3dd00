#include "core/deps/provision/tool_settings.h"

namespace reviewer::deps {

ToolSettings tool_settings(const JobTools& tools, const exec::JobDirs& dirs) {
  ToolSettings out;
  out.defaults = {{"npm_config_cache", dirs.cache + "/npm"},
                  {"BUN_INSTALL_CACHE_DIR", dirs.cache + "/bun"}};
  auto& set = out.settings;
  if (!tools.npm_cache.empty()) {
    // npm ci reads each tarball from the cache by the lock's integrity, so the install is the
    // one CI makes (the job's own writable copy of the host's view, npm_cache_seed.h); offline
    // turns a request the cache cannot answer into an immediate ENOTCACHED instead of minutes of
    // retries; the logs go where npm would write them (docs/dependencies.md).
    set.emplace_back("npm_config_cache", tools.npm_cache);
    // Not with the loopback as the registry (a plan of pnpm 8, npm_config_registry.h): pnpm 8
    // reads the name too and then refuses to fetch even from the loopback
    // (ERR_PNPM_NO_OFFLINE_TARBALL, measured with 8.15.9); a request npm's cache cannot answer
    // then goes to the loopback, which answers at once.
    if (!tools.npm_registry.starts_with("http://")) {
      set.emplace_back("npm_config_offline", "true");
    }
    set.emplace_back("npm_config_logs_dir", dirs.cache + "/npm/_logs");
  }
  if (!tools.npm_registry.empty()) {
    // pnpm derives each tarball's URL from the registry and the lock's name and version, then
    // verifies it against the lock's integrity; the view's file: registry serves exactly the
    // bytes CI downloads (docs/dependencies.md). npm reads its cache by integrity first, so the
    // setting does not change what npm ci installs.
    set.emplace_back("npm_config_registry", tools.npm_registry);
  }
  if (!tools.http_registry.empty()) {
    // pnpm 11 and later read only pnpm_config_* settings and install only from an HTTP
    // registry; they ask it for each locked package's metadata, then fetch the tarball and check
    // it against the lock's integrity as from the registry CI uses. pnpm 10 and earlier ignore
    // the name (docs/dependencies.md, "pnpm 11").
    set.emplace_back("pnpm_config_registry", tools.http_registry);
    // yarn 2 and later fetch each locked package's tarball from npmRegistryServer (these YARN_
    // settings win over the project's .yarnrc.yml) and check the archive they make of it against
    // the lock's checksum; they refuse plain HTTP to a host not on the whitelist (YN0081).
    // yarn 1 reads neither name (docs/dependencies.md, "Yarn 2 and later").
    std::string server = tools.http_registry;
    while (server.ends_with("/")) {
      server.pop_back();
    }
    set.emplace_back("YARN_NPM_REGISTRY_SERVER", server);
    set.emplace_back("YARN_UNSAFE_HTTP_WHITELIST", "127.0.0.1");
  }
  if (!tools.npm_prefix.empty()) {
    // The runner's global prefix is writable (/usr/local, or setup-node's tool directory); the
    // image's node directory is not, so `npm install -g` goes to the job's own prefix, first on
    // PATH as the runner's is with node (docs/dependencies.md, "Global installs").
    set.emplace_back("npm_config_prefix", tools.npm_prefix);
  }
  if (!tools.yarn_mirror.empty()) {
    // yarn 1 takes `yarn-offline-mirror` from YARN_* over any .yarnrc or .npmrc, finds each
    // tarball of the lock there by its file name, and checks it against the lock's integrity as
    // it would a download; the rest of yarn's settings stay the project's (docs/dependencies.md,
    // "Yarn").
    set.emplace_back("YARN_YARN_OFFLINE_MIRROR", tools.yarn_mirror);
  }
  return out;
}

}  // namespace reviewer::deps

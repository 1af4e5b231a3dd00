#include "core/deps/npm_resolution.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/deps/manifest_sources.h"
#include "core/deps/npmrc_resolution.h"
#include "core/deps/resolution_registry.h"
#include "core/util/file_read.h"
#include "core/util/unique_fd.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Long enough for a large tree on a slow registry; a hung npm must not hold the review.
constexpr std::chrono::minutes kResolutionLimit{15};

// npm's global configuration in the resolution folder: empty, the host's. Not `.npmrc`, which
// npm would also read as the project's.
constexpr const char* kGlobalNpmrc = "host-global-npmrc";

util::Refusal manifest_refusal(const std::string& why) {
  return {"dependency-manifest-invalid", "package.json: " + why, std::nullopt};
}

// Resolves `manifest` (a package.json's text) with the image's npm in the resolution sandbox, in
// `dir` (made fresh), through the host's registry, and checks what npm wrote as it checks a
// committed lock.
util::Result<NpmResolution> resolve_manifest(
    const std::string& manifest, const std::vector<std::string>& flags, ResolutionSandbox& engine,
    const std::string& image, const std::string& dir, const deps::FetchOptions& options,
    deps::Downloader& downloader, const contract::SandboxLimits& limits) {
  // What the host's registry fetched stays beside the sandbox's folder, where it cannot write.
  const std::string served_dir = dir + ".registry";
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::remove_all(served_dir, ec);
  if (!fs::create_directories(dir, ec) || !fs::create_directories(served_dir, ec) ||
      !(std::ofstream(dir + "/package.json", std::ios::binary) << manifest) ||
      !std::ofstream(dir + "/" + kGlobalNpmrc, std::ios::binary)) {
    return util::refusal(util::RefusalKind::kHost, "dependency-store",
                         "cannot make the resolution directory " + dir);
  }
  fs::permissions(served_dir, fs::perms::owner_all, ec);
  std::unique_ptr<ResolutionRegistry> registry;
  ResolutionSpec spec{image, dir, kResolutionLimit, limits, nullptr, nullptr};
  spec.serve = [&](util::UniqueFd listener) -> util::Result<std::string> {
    registry = std::make_unique<ResolutionRegistry>(std::move(listener), options.registry,
                                                    downloader, served_dir);
    return registry->url();
  };
  spec.command = [&](const std::string& sandbox_dir, const std::string& url) {
    return npm_resolution_command(sandbox_dir, url, flags);
  };
  auto ran = engine.resolve(spec);
  auto served =
      registry
          ? registry->finish()
          : util::Result<std::vector<deps::ServedMetadata>>(std::vector<deps::ServedMetadata>());
  if (!ran) {
    return ran.error();
  }
  if (!served) {
    // Why npm failed, when it did: the registry could not fetch what it asked for.
    return served.error();
  }
  if (ran->timed_out || ran->status != 0) {
    return util::Refusal{
        "dependency-resolution-failed",
        ran->timed_out ? "npm install --package-lock-only ran past " +
                             std::to_string(kResolutionLimit.count()) + " minutes"
                       : "npm install --package-lock-only exited " + std::to_string(ran->status) +
                             " in the resolution sandbox (npm's output is above); CI's npm "
                             "install resolves the same package.json",
        std::nullopt};
  }
  auto list = deps::plan_npm_fetch(dir, options);
  if (!list) {
    return list.refusals();
  }
  if (!*list) {
    return util::Refusal{"dependency-resolution-invalid", "npm wrote no package-lock.json",
                         std::nullopt};
  }
  NpmResolution out;
  for (const auto& document : *served) {
    auto packument = deps::served_packument(document, options.registry);
    if (!packument) {
      return packument.refusals();
    }
    out.packuments.push_back(std::move(*packument));
  }
  out.lock_file = dir + "/package-lock.json";
  out.list = std::move(**list);
  out.list.lock_file = "package-lock.json (resolved at review time)";
  return out;
}

}  // namespace

std::vector<std::string> npm_resolution_command(const std::string& dir, const std::string& registry,
                                                const std::vector<std::string>& settings) {
  std::vector<std::string> argv{"npm", "install", "--package-lock-only", "--ignore-scripts",
                                "--no-audit", "--no-fund", "--no-update-notifier",
                                // Every setting that could run something is the host's: no
                                // user or global npmrc (the project's is never in `dir`), and
                                // a git that always fails, should any git source get past
                                // check_registry_specs.
                                "--userconfig", "/dev/null",
                                // npm refuses one file as both; the host writes this one
                                // empty (resolve_manifest).
                                "--globalconfig", dir + "/" + kGlobalNpmrc, "--git", "/bin/false",
                                "--registry", registry, "--cache", dir + "/cache", "--loglevel",
                                "warn"};
  argv.insert(argv.end(), settings.begin(), settings.end());
  return argv;
}

bool lacks_lock_file(const std::string& worktree) {
  struct stat st {};
  if (::lstat((worktree + "/package.json").c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return false;
  }
  for (const char* lock : {"npm-shrinkwrap.json", "package-lock.json", "pnpm-lock.yaml", "bun.lock",
                           "bun.lockb", "yarn.lock"}) {
    if (::lstat((worktree + "/" + lock).c_str(), &st) == 0) {
      return false;
    }
  }
  return true;
}

util::Result<std::optional<NpmResolution>> resolve_npm(
    const std::string& worktree, ResolutionSandbox& engine, const std::string& image,
    const std::string& dir, const deps::FetchOptions& options, deps::Downloader& downloader,
    const contract::SandboxLimits& limits) {
  const auto start = Clock::now();
  util::UniqueFd tree = util::open_directory(AT_FDCWD, worktree.c_str());
  util::ReadLimits read_limits;
  read_limits.max_bytes = 1u << 20;
  auto manifest = tree.valid()
                      ? util::read_regular_file(tree.get(), "package.json", read_limits)
                      : util::Result<std::string>(manifest_refusal("cannot open " + worktree));
  if (!manifest) {
    return manifest_refusal(manifest.error().message);
  }
  const auto json = nlohmann::json::parse(*manifest, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) {
    return manifest_refusal("not a JSON object");
  }
  bool declares = false;
  for (const char* group :
       {"dependencies", "devDependencies", "optionalDependencies", "peerDependencies"}) {
    declares =
        declares || (json.contains(group) && json[group].is_object() && !json[group].empty());
  }
  if (!declares) {
    return std::optional<NpmResolution>();
  }
  // Before npm starts: a source other than the registry makes npm run the source's own code.
  if (auto registry_only = check_registry_specs(json); !registry_only) {
    return registry_only.refusals();
  }
  auto npmrc = npmrc_resolution(tree.get());
  if (!npmrc) {
    return npmrc.refusals();
  }
  if (json.contains("workspaces")) {
    return manifest_refusal(
        "it declares workspaces and has no lock file; the resolution reads package.json alone, "
        "so commit the lock npm writes (package-lock.json)");
  }

  auto out =
      resolve_manifest(*manifest, npmrc->flags, engine, image, dir, options, downloader, limits);
  if (!out) {
    return out.refusals();
  }
  out->npmrc = std::move(npmrc->shown);
  out->elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  return std::optional<NpmResolution>(std::move(*out));
}

util::Result<NpmResolution> resolve_global_install(const std::string& name, const std::string& spec,
                                                   ResolutionSandbox& engine,
                                                   const std::string& image, const std::string& dir,
                                                   const deps::FetchOptions& options,
                                                   deps::Downloader& downloader,
                                                   const contract::SandboxLimits& limits) {
  const auto start = Clock::now();
  if (auto registry_only = check_registry_spec(name, spec, "npm install -g"); !registry_only) {
    return registry_only.refusals();
  }
  // `npm install -g NAME@SPEC` makes NAME the root of its own tree: the same tree as a project
  // whose one dependency it is.
  const nlohmann::json manifest{{"name", "reviewer-global-install"},
                                {"version", "0.0.0"},
                                {"private", true},
                                {"dependencies", {{name, spec}}}};
  auto out = resolve_manifest(manifest.dump(), {}, engine, image, dir, options, downloader, limits);
  if (!out) {
    return out.refusals();
  }
  out->list.lock_file = "npm install -g " + name + (spec == "*" ? "" : "@" + spec) +
                        " (a run step's; resolved at review time, as CI resolves it when the "
                        "step runs)";
  out->elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  return out;
}

}  // namespace reviewer::deps

#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/deps/downloader.h"
#include "core/deps/fetch.h"
#include "core/deps/packument_cache.h"
#include "core/deps/resolution_sandbox.h"
#include "core/util/result.h"

namespace reviewer::deps {

// A project without a lock file: CI's `npm install` resolves package.json against the registry
// at CI's time, so the review resolves it at review time, with the image's own npm, in a
// resolution sandbox that sees package.json and nothing else of the pull request
// (`npm install --package-lock-only --ignore-scripts`) and reaches nothing but the registry the
// host serves it (deps/resolution_registry.h). What npm wrote is hostile input: the lock goes
// through every rule of a committed lock (deps::plan_npm_fetch) before the review may see it.
// The metadata npm read is what the host's registry served, recorded by the host. In the sandbox
// `npm install --offline` then resolves from exactly that metadata (docs/dependencies.md,
// "Without a lock file").
struct NpmResolution {
  std::string lock_file;  // the package-lock.json npm wrote, on the host
  deps::FetchList list;   // its tarballs
  std::vector<deps::Packument> packuments;
  std::vector<std::string> npmrc;  // the project's .npmrc settings it honoured ("tag=next")
  std::chrono::milliseconds elapsed{0};
};

// npm's command line for the resolution, run in `dir` (npm's cache goes to `dir`/cache).
// `settings` are the project's honoured .npmrc settings as flags (npmrc_resolution).
std::vector<std::string> npm_resolution_command(const std::string& dir, const std::string& registry,
                                                const std::vector<std::string>& settings);

// Whether `worktree` has a package.json (a regular file) and no lock file of any package manager
// (npm-shrinkwrap.json, package-lock.json, pnpm-lock.yaml, bun.lock, bun.lockb, yarn.lock).
bool lacks_lock_file(const std::string& worktree);

// Resolves the worktree's package.json in `engine`'s resolution sandbox over `image`, in `dir`
// (made fresh; what the host's registry fetches with `downloader` goes to `dir`.registry); nullopt,
// without a sandbox, when package.json declares no dependency (in `dependencies`,
// `devDependencies`, `optionalDependencies` or `peerDependencies`). Refusals:
// `dependency-manifest-invalid` (package.json unreadable, or a `workspaces` field: the resolution
// sees package.json alone), `dependency-npmrc-invalid` (npmrc_resolution),
// `dependency-resolution-failed` (npm exited non-zero or ran past
// `limit`; its output is above), `dependency-resolution-invalid` (npm wrote no lock), the first
// failure of the host's registry (`dependency-too-large`, `dependency-fetch-failed`,
// `resolution-too-many-requests`), the engine's, and every refusal of a committed lock.
util::Result<std::optional<NpmResolution>> resolve_npm(
    const std::string& worktree, ResolutionSandbox& engine, const std::string& image,
    const std::string& dir, const deps::FetchOptions& options, deps::Downloader& downloader,
    const contract::SandboxLimits& limits);

// A global install a run step makes (deps/global_installs.h), `npm install -g NAME@SPEC`: CI
// resolves it against the registry when the step runs, so the review resolves it at review time
// the same way as a project whose one dependency it is, and the step's own `npm install -g` then
// finds the tree in npm's offline cache. Refusals as resolve_npm's, but for the manifest.
util::Result<NpmResolution> resolve_global_install(const std::string& name, const std::string& spec,
                                                   ResolutionSandbox& engine,
                                                   const std::string& image, const std::string& dir,
                                                   const deps::FetchOptions& options,
                                                   deps::Downloader& downloader,
                                                   const contract::SandboxLimits& limits);

}  // namespace reviewer::deps

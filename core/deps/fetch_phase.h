#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/deps/fetch.h"
#include "core/deps/global_installs.h"
#include "core/deps/package_manager.h"
#include "core/deps/resolution_sandbox.h"
#include "core/plan/plan.h"
#include "core/resolve/resolver.h"
#include "core/util/result.h"

namespace reviewer::deps {

struct FetchPhaseRequest {
  std::string worktree;     // the clone
  std::string scratch;      // the review's scratch directory (resolution, view)
  std::string store_dir;    // the shared store
  std::string reports_dir;  // where a lock resolved at review time is copied; empty: nowhere
  std::string image;        // the resolved image: its npm resolves a project without a lock
  // fetch_phase() gives these a meter when they have none: every download of the review counts
  // against one bound.
  deps::FetchOptions options;
  contract::SandboxLimits limits;
  // The package managers the plan's steps install (pnpm/action-setup's pins), fetched into the
  // store and the view too, with or without a lock file.
  std::vector<deps::PackageManagerPin> package_managers = {};
  // The worktree directories the plan's run steps work in (project_dirs()), whose npm locks
  // are fetched too.
  std::vector<std::string> project_dirs = {};
  // The plan's global npm installs (global_npm_installs()), resolved and fetched at review time.
  std::vector<GlobalInstall> global_installs = {};
};

// The worktree-relative directories `plan`'s run steps work in (`working-directory`, theirs or
// the defaults'), each once, other than the top: written without expressions, inside the
// worktree ("website", "packages/app"; a leading "./" and trailing "/" dropped).
std::vector<std::string> project_dirs(const plan::Plan& plan);

// The package managers `plan`'s steps install (its `pnpm` pins, one per version), each with
// package.json's packageManager as `resolution` read it when that names the same version (its
// corepack hash is then checked too).
std::vector<deps::PackageManagerPin> package_manager_pins(const plan::Plan& plan,
                                                          const resolve::Resolution& resolution);

// The fetch phase of a review, before the review's sandbox exists: the tarballs the worktree's
// lock files pin, or, for a package.json without any lock file, what the image's npm resolves
// from the registry now (deps/npm_resolution.h), into the store; then the review's view of them.
// Prints what it did on stdout ("review: dependencies: ..."). Returns the view's directory
// (empty: the review has no dependencies to mount), or the refusals; is_host_side() tells the
// host's failures from the pull request's.
util::Result<std::string> fetch_phase(const FetchPhaseRequest& request, ResolutionSandbox& engine);

}  // namespace reviewer::deps

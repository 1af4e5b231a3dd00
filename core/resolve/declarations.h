#pragma once

#include <string>
#include <vector>

#include "core/resolve/declaration.h"
#include "core/util/source_location.h"

namespace reviewer::resolve {

// A runtime version or range a planned job pins (setup-node `node-version`, setup-bun
// `bun-version`), with where the workflow says it; or, for a job no step of which pins the
// runtime, the runner's default (located at its `runs-on`).
struct Pin {
  std::string runtime;  // "node" or "bun"
  std::string version;
  util::SourceLocation location;
  // Empty for a step's pin; else what the runner's default is ("the runner's default Node 22
  // (ubuntu-24.04, actions/runner-images #14046)"), which names the declaration in messages.
  std::string runner_default = {};
  // The step's action asks the runner's tool cache first (setup-node without check-latest), and
  // `asked` is the step's own value where the planner put the cached line in `version`.
  bool tool_cache = false;
  std::string asked = {};
};

// Reads every declaration file at the top of `worktree`: package.json (at most 1 MiB),
// .nvmrc, .node-version, .bun-version and .tool-versions (at most 64 KiB each). Files are opened
// relative to the worktree without following symlinks; a symlink, a non-regular file, an
// oversized or unreadable file is an invalid-declaration refusal naming it. Absent files are
// fine.
DeclarationSet read_declarations(const std::string& worktree);

// Turns plan pins into declarations: runtime must be node or bun; the version exact or a semver
// range (invalid-declaration otherwise). A runner's default becomes a declaration marked
// `runner_default`, whose source is its description and location.
DeclarationSet pin_declarations(const std::vector<Pin>& pins);

}  // namespace reviewer::resolve

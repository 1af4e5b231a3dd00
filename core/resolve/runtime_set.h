#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/resolve/declarations.h"
#include "core/resolve/runtime_catalogue.h"
#include "core/util/result.h"

namespace reviewer::resolve {

// The exact runtimes one review provides, from the trusted catalogue: the Node release every job
// of the closure runs (with the npm and corepack it bundles) and the Bun release, if a job pins
// one. CI runs each job on its own runner; the review runs the closure in one sandbox, so every
// job must get the same release.
struct RuntimeSet {
  const CatalogueRelease* node = nullptr;
  const CatalogueRelease* npm = nullptr;
  const CatalogueRelease* corepack = nullptr;  // nullptr: the release bundles none
  const CatalogueRelease* bun = nullptr;       // nullptr: no job pins bun
  // One line a decision, for the log and the report: "node '24.x' at ci.yml:9:11 taken as
  // 24.22.3: ...", and where a bundle is not recorded, which release's stands for it.
  std::vector<std::string> decisions;
};

// What CI installs for `pins` (plan::resolver_pins) on `today`: each pin as its action picks it
// (release_pick.h; a step's tool-cache pin asks `tool_cache_lines`, the runner image's cached Node
// lines, newest first), a runner's default as the newest release of its line (the runner image
// installs that when it is built). Refusals, all of them returned:
//   conflicting               two pins of one runtime that CI answers with different releases
//   runtime-not-in-catalogue  pick_release's, and a Node release no release of whose line has
//                             its npm recorded
//   invalid-declaration       pick_release's
// A Node release whose bundle the catalogue does not record gets its line's nearest release that
// does (the newest before it, else the oldest after it), said in `decisions`.
util::Result<RuntimeSet> resolve_runtime_set(const std::vector<Pin>& pins,
                                             const RuntimeCatalogue& catalogue,
                                             std::string_view today,
                                             const std::vector<int>& tool_cache_lines);

}  // namespace reviewer::resolve

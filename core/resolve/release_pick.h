#pragma once

#include <string>
#include <vector>

#include "core/resolve/runtime_catalogue.h"
#include "core/util/result.h"
#include "core/util/source_location.h"

namespace reviewer::resolve {

// What a setup step asks CI to install: actions/setup-node's `node-version` (with its
// `check-latest`) or oven-sh/setup-bun's `bun-version`, as the step or its version file wrote it.
struct ReleaseAsk {
  std::string tool;  // "node" or "bun"
  // node: an exact version ("24.18.1", "v24.18.1"), a range or partial version ("24", "24.x",
  // ">=20 <23", "^22.1") or an alias (lts/*, lts/-N, lts/<codename>, node, latest, current).
  // bun: an exact version, a range ("1.x", "^1.2"), "latest", or "" (setup-bun takes the latest).
  std::string spec;
  bool check_latest = false;  // setup-node's check-latest: the tool cache is not asked first
  // node: the lines the runner image's tool cache holds one build of each, newest first
  // (plan::kRunnerImage's cached_node_lines: the caller passes them, as core/resolve does not know
  // the runner). Which build is not known, so each line's newest catalogue release on `today`
  // stands for it. bun: not read (the runner caches no bun).
  std::vector<int> tool_cache_lines;
  std::string today;           // YYYY-MM-DD: only releases dated on or before it existed for CI
  util::SourceLocation where;  // where the step wrote the spec, for refusals
};

// The release CI's setup step installs for an ask, and why.
struct ReleasePick {
  const CatalogueRelease* release = nullptr;  // into the catalogue given to pick_release
  // What decided it:
  //   exact            an exact version
  //   tool-cache-line  a node range, without check-latest, that a cached build satisfies
  //                    (setup-node's tc.find takes the highest such build; the newest release
  //                    of its line stands for it)
  //   newest-match     the newest release satisfying a range
  //   alias            the newest release of the line a node alias names
  //   latest           bun's latest
  std::string rule;
  std::string why;  // one line for the log: the spec, the release, and the reason
};

// The release of `ask.tool` that the setup step installs on `ask.today`, as the actions decide it
// (docs/resolver.md, "Which release a setup step installs"). Pure: reads nothing but its
// arguments. Refuses:
//   invalid-declaration       a spec the action cannot read (not a version, range or alias;
//                             an alias no line answers), an empty node spec, another tool, no date
//   runtime-not-in-catalogue  nothing the catalogue holds by `today` answers it: an exact version
//                             it lacks (naming the newest release of that line it holds), a range
//                             or alias line without a release, bun's canary builds
util::Result<ReleasePick> pick_release(const ReleaseAsk& ask, const RuntimeCatalogue& catalogue);

}  // namespace reviewer::resolve

#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/report/refusal.h"
#include "core/semver/range.h"
#include "core/util/result.h"
#include "core/util/source_location.h"

namespace reviewer::resolve {

// The tools a declaration can constrain: the runtimes and the Corepack package managers.
inline constexpr std::string_view kKnownTools[] = {"node", "bun", "pnpm", "yarn", "npm"};

// One requirement read from the worktree or the plan: `tool` must satisfy `range`.
struct Declaration {
  std::string tool;               // "node", "bun", "pnpm", "yarn" or "npm"
  std::string value;              // as written, e.g. ">=20 <23", "v22.1.0", "9.1.0+sha512.ab"
  std::string source;             // "package.json engines.node", ".nvmrc", "pin" ...
  util::SourceLocation location;  // file relative to the worktree; line/column when known
  semver::Range range;            // what the value admits (strict semver, no prereleases)
  // False for a declaration CI itself does not enforce (package.json `packageManager: npm@X`
  // installs nothing unless a job enables corepack): reported, never used to select or refuse.
  bool constrains = true;
  // The runner's default runtime of a job no step of which pins it (a plan pin): it selects the
  // matrix's image of its line, and a declaration that image does not satisfy conflicts with it.
  bool runner_default = false;
  // A plan pin (node or bun): what a job's setup step installs, or the runner's default. The
  // worktree's declarations of a pinned tool are then reported, not enforced (resolver.h).
  bool pinned = false;
  // A setup-node alias (`lts/*`, `latest`, ...: node_schedule.h) kept as written: select_image
  // sets `range` to the line the matrix's schedule names for it on the review's date.
  bool alias = false;
};

// What a reader found: the declarations it understood and a refusal for each one it could not
// (rule "invalid-declaration", naming the file and quoting the value).
struct DeclarationSet {
  std::vector<Declaration> declarations;
  report::Refusals refusals;

  void add(const DeclarationSet& other);
};

// A refusal with rule "invalid-declaration".
report::Refusal invalid_declaration(std::string message, util::SourceLocation where);

// Parses `value` as a requirement on `tool` from `source`. Aliases (lts/*, node, latest,
// system, ...) and anything node-semver rejects as a range become invalid-declaration
// refusals that name `source` and quote the value.
DeclarationSet make_declaration(std::string tool, std::string value, std::string source,
                                util::SourceLocation where);

// The same for a Node version spec as nvm, fnm and actions/setup-node read it (.nvmrc,
// .node-version, setup-node's node-version): an alias the release schedule answers (lts/*,
// lts/-N, lts/<codename>, node, latest, current; node_schedule.h) becomes an `alias` declaration,
// resolved when the image is selected.
DeclarationSet make_node_spec_declaration(std::string value, std::string source,
                                          util::SourceLocation where);

// Same, for a value that must be one exact version (packageManager, pins): `1.2.3`, `v1.2.3`,
// `1.2.3-rc.1`, `1.2.3+build` (build metadata ignored).
DeclarationSet make_exact_declaration(std::string tool, std::string value, std::string source,
                                      util::SourceLocation where);

}  // namespace reviewer::resolve

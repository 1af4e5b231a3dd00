#pragma once

#include <map>
#include <string>
#include <variant>
#include <vector>

#include "core/report/refusal.h"
#include "core/resolve/declaration.h"
#include "core/resolve/declarations.h"
#include "core/resolve/runtime_table.h"
#include "core/util/result.h"

namespace reviewer::resolve {

// The one image the declarations select, and what selected it (for the report).
struct Resolution {
  std::string image;
  std::map<std::string, std::string> runtimes;  // the image's exact versions
  std::vector<Declaration> declarations;
  std::vector<std::string> notes;  // declarations reported but not enforced, and why
};

// Selects exactly one image of `matrix` that satisfies every declaration that is enforced (each
// tool's version in the image must satisfy every range declared for that tool; prereleases are
// not admitted unless a range names one). Where a plan pins a tool (Declaration::pinned: a setup
// step's version, or the runner's default), only the pins are enforced on it: the worktree's
// declarations of that tool are what CI never installs from, so each is a note instead.
// Refusals, all of them returned:
//   invalid-declaration  `declarations.refusals` (passed through; nothing else is tried)
//   conflicting          two enforced declarations on one tool that no version satisfies
//                        together (two jobs' pins, or two files of a tool no job pins); or a
//                        pin the matrix's one version of a runner's default
//                        (Declaration::runner_default) does not satisfy, located at that pin
//   out-of-matrix        no image satisfies all: "missing image: node >=25 with bun 1.3.10 ..."
//   ambiguous            more than one image satisfies all; the candidates are named
util::Result<Resolution> select_image(const DeclarationSet& declarations,
                                      const RuntimeTable& matrix);

// Reads the declarations in `worktree` (see read_declarations), adds `pins`, and selects
// exactly one image; on failure returns every refusal (rules: invalid-declaration,
// conflicting, ambiguous, out-of-matrix).
util::Result<Resolution> resolve(const std::string& worktree, const RuntimeTable& matrix,
                                 const std::vector<Pin>& pins);

}  // namespace reviewer::resolve

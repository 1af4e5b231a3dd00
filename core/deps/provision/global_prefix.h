#pragma once

#include <string>

#include "core/util/result.h"

// npm's global prefix in a job, as a runner has it: writable (the runner's /usr/local, or
// setup-node's tool directory), on PATH with node, and holding corepack. `npm install -g` writes
// there; `corepack enable` writes its shims beside the `corepack` it finds on PATH, which is this
// prefix's. docs/dependencies.md, "corepack" and "Global installs".
namespace reviewer::deps {

// Makes `prefix` (a directory of the job's own scratch) an npm global prefix: `lib/node_modules`
// and `bin`, and, when `corepack_cjs` names the image's corepack (its dist/lib/corepack.cjs, whose
// bytes the self-check holds to the trusted table), corepack installed in it as Node's
// distributions install it: `lib/node_modules/corepack` a folder of links to the image's
// package's entries and `bin/corepack` -> `../lib/node_modules/corepack/dist/corepack.js`, which
// `npm install -g corepack` replaces as it would its own. Returns the `bin` directory for PATH.
// Error `corepack-setup`.
util::Result<std::string> make_global_prefix(const std::string& prefix,
                                             const std::string& corepack_cjs);

}  // namespace reviewer::deps

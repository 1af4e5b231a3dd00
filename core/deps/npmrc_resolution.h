#pragma once

#include <string>
#include <vector>

#include "core/util/result.h"

namespace reviewer::deps {

// The settings of the project's own .npmrc that change which versions `npm install` picks. The
// resolution sandbox never sees that file (it may hold credentials, a registry or scripts), but
// the review's `npm install` does, as CI's does: without them the two resolve differently (a
// project with `min-release-age=7` gets a version published yesterday in the resolution and the
// week-old one in the review, whose tarball was never fetched). So these few, and only these,
// are read on the host and passed to the resolution as npm flags ("--min-release-age=7").
struct NpmrcResolution {
  std::vector<std::string> flags;  // npm's command-line form, in the file's order
  std::vector<std::string> shown;  // "min-release-age=7", for the review's log
};

// Reads `.npmrc` at the top of the worktree `tree_fd` (absent: no settings) as npm's ini reader
// does: `key = value` lines, a bare `key` meaning `key = true`, `#` and `;` comment lines, a
// quoted value unquoted, the last assignment of a key winning, nothing after a `[section]`.
// Honoured, each value checked: min-release-age (days), before (a date), legacy-peer-deps,
// strict-peer-deps, prefer-dedupe, install-links (true/false), install-strategy (hoisted, nested,
// shallow, linked) and tag (a dist-tag). Every other key is left to the review's npm. Refusal
// `dependency-npmrc-invalid` when the file is a link or not a regular file, is over 64 KiB, or
// gives an honoured key a value npm would read differently from the resolution: one outside its
// form, or one naming an environment variable (`${...}`), which CI's environment fills and the
// review's does not.
util::Result<NpmrcResolution> npmrc_resolution(int tree_fd);

}  // namespace reviewer::deps

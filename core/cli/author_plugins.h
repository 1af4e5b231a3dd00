#pragma once

#include <string>
#include <vector>

#include "core/plugins/registry.h"
#include "core/util/result.h"

namespace reviewer::cli {

// The installed plugins, and those of each `--plugin-dir` a plugin author names for
// `reviewer fixtures` and `reviewer plan`, each directory held to the install's checks (its own
// MANIFEST.sha256, who may write it). Only these authoring commands take extra directories: the
// launcher and `reviewer review` load the install's plugins alone.
util::Result<plugins::Registry> open_plugins(const std::vector<std::string>& author_dirs);

}  // namespace reviewer::cli

#pragma once

#include <string>

#include "core/util/result.h"

namespace reviewer::plugins {

// Writes `dir`/PLUGINS.index (mode 0644) from every plugin of `dir`, each verified against the
// manifest and loaded (an existing index is not read; it is replaced). Any refusal of the
// install is returned and nothing is written. Run at install time, after the manifest.
util::Status write_index(const std::string& dir);

}  // namespace reviewer::plugins

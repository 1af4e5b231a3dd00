#pragma once

#include <string>
#include <vector>

#include "core/util/result.h"

namespace reviewer::launch {

// The launcher's whole argument surface: none (build /workspace) or `--self-check`. Anything
// else is refused (launcher-arguments) without being interpreted.
enum class Mode { kBuild, kSelfCheck };
util::Result<Mode> parse_arguments(const std::vector<std::string>& args);

}  // namespace reviewer::launch

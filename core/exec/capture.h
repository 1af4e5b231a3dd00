#pragma once

#include <string>
#include <vector>

#include "core/util/result.h"

namespace reviewer::exec {

// Runs `argv` (absolute argv[0]) with exactly `env`, stdin from /dev/null, and returns what it
// printed on stdout (at most `max_bytes`) if it exited 0 within a few seconds. Used for the
// launcher's own tool checks (`node --version`), never for workflow code.
util::Result<std::string> capture_output(const std::vector<std::string>& argv,
                                         const std::vector<std::string>& env,
                                         std::size_t max_bytes = 4096);

}  // namespace reviewer::exec

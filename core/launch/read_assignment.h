#pragma once

#include <string>

#include "core/contract/assignment.h"
#include "core/launch/init_environment.h"
#include "core/util/result.h"

namespace reviewer::launch {

// Reads the assignment from the container init's environment (`init`, normally /proc/1/environ),
// never from the caller: contract::read_assignment_environment() over its block.
util::Result<contract::Assignment> read_assignment(const InitEnvironment& init);
// The same, opening `environ_path` first.
util::Result<contract::Assignment> read_assignment(const std::string& environ_path);

}  // namespace reviewer::launch

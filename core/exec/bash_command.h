#pragma once

#include <string>
#include <vector>

#include "core/util/result.h"

namespace reviewer::exec {

// The command line GitHub's runner uses for a `run:` step's `shell:` with the script at
// `script_path`: no shell is `bash -e {0}`, `shell: bash` is
// `bash --noprofile --norc -eo pipefail {0}`. Any other shell is refused (non-bash-shell): the
// review image reproduces bash only.
util::Result<std::vector<std::string>> bash_command_line(const std::string& shell,
                                                         const std::string& script_path);

}  // namespace reviewer::exec

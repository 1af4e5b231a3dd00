#include "core/exec/bash_command.h"

namespace reviewer::exec {

util::Result<std::vector<std::string>> bash_command_line(const std::string& shell,
                                                         const std::string& script_path) {
  if (shell == "bash") {
    return std::vector<std::string>{"/bin/bash", "--noprofile", "--norc",
                                    "-eo",       "pipefail",    script_path};
  }
  if (shell.empty()) {
    return std::vector<std::string>{"/bin/bash", "-e", script_path};
  }
  return util::refusal("non-bash-shell", "shell '" + shell + "' is not reproduced");
}

}  // namespace reviewer::exec

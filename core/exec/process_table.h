#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace reviewer::exec {

struct ProcessInfo {
  pid_t pid = 0;
  pid_t pgid = 0;
  std::string comm;
};

// Every live process whose parent is `parent`, read from /proc (works inside a PID namespace
// and needs no CONFIG_PROC_CHILDREN). Zombies are included: they still need reaping.
std::vector<ProcessInfo> children_of(pid_t parent);

}  // namespace reviewer::exec

#include "core/fetch/platform.h"

#include <algorithm>
#include <string>
#include <vector>

namespace reviewer::fetch {
namespace {

// npm-install-checks' checkList.
bool admits(const std::vector<std::string>& list, const std::string& value) {
  if (list.empty() || (list.size() == 1 && list.front() == "any")) {
    return true;
  }
  bool positive = false;
  bool named = false;
  for (const auto& entry : list) {
    if (entry.starts_with("!")) {
      if (entry.substr(1) == value) {
        return false;
      }
    } else {
      positive = true;
      named = named || entry == value;
    }
  }
  return !positive || named;
}

}  // namespace

bool installs_here(const LockedPackage& p) {
  return admits(p.os, "linux") && admits(p.cpu, "x64") && admits(p.libc, "glibc");
}

}  // namespace reviewer::fetch

#include "core/util/install_layout.h"

#include <filesystem>
#include <system_error>

namespace reviewer::util {
namespace {

// Only the exact build-tree bin directory selects the build tree; anything else (an installed
// binary, a copy elsewhere) gets the install prefix.
bool running_from_build_tree() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return !ec && exe.parent_path() == std::filesystem::path(REVIEWER_BUILD_BIN_DIR);
}

}  // namespace

std::string plugin_directory() {
  return running_from_build_tree() ? REVIEWER_BUILD_PREFIX "/plugins"
                                   : REVIEWER_INSTALL_PREFIX "/plugins";
}

std::string data_directory() {
  return running_from_build_tree() ? REVIEWER_BUILD_PREFIX "/share/reviewer"
                                   : REVIEWER_INSTALL_PREFIX "/share/reviewer";
}

}  // namespace reviewer::util

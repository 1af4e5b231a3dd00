#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace reviewer::deps {

// Removes a download directory whatever happened; what was verified is already moved out of it.
struct DownloadDirGuard {
  std::string path;
  ~DownloadDirGuard() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace reviewer::deps

#pragma once

#include <string>

#include "core/util/result.h"
#include "core/util/unique_fd.h"

namespace reviewer::launch {

// The container init's environment (/proc/1/environ), where the host put the assignment.
// Opened once, at the launcher's start: the kernel decides who may read another process's
// environment when the file is opened, not when it is read. So a launcher started as root opens
// it, becomes the sandbox user (sandbox_user.h), and still reads it after the build through this
// descriptor, while no step, running as another user than PID 1, can open it or PID 1's memory.
class InitEnvironment {
 public:
  // Refuses assignment-missing when the file cannot be opened (with what to do when the reason
  // is that PID 1 is another user's and the launcher was not started as root).
  static util::Result<InitEnvironment> open(const std::string& path);

  // The NUL-separated block as it is now, from its start, within 1 MiB.
  util::Result<std::string> read() const;

  const std::string& path() const { return path_; }

 private:
  InitEnvironment(util::UniqueFd fd, std::string path)
      : fd_(std::move(fd)), path_(std::move(path)) {}
  util::UniqueFd fd_;
  std::string path_;
};

}  // namespace reviewer::launch

#include "core/launch/init_environment.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/util/file_read.h"

namespace reviewer::launch {
namespace {

constexpr std::size_t kMaxEnvironBytes = 1 << 20;

util::Refusal unreadable(const std::string& path, const std::string& why) {
  return util::refusal("assignment-missing",
                       "cannot read the container init's environment '" + path + "': " + why);
}

}  // namespace

util::Result<InitEnvironment> InitEnvironment::open(const std::string& path) {
  struct stat st {};
  auto fd = util::open_regular_file(AT_FDCWD, path, false, st);
  if (!fd) {
    std::string why = fd.error().message;
    if (fd.error().message == std::strerror(EACCES) && ::geteuid() != 0) {
      why +=
          " (PID 1 runs as another user than the launcher; the host starts the launcher as root "
          "with CAP_SETUID and CAP_SETGID, and it becomes the sandbox user itself: docs/host.md)";
    }
    return unreadable(path, why);
  }
  return InitEnvironment(std::move(*fd), path);
}

util::Result<std::string> InitEnvironment::read() const {
  if (::lseek(fd_.get(), 0, SEEK_SET) != 0) {
    return unreadable(path_, std::strerror(errno));
  }
  // /proc files report size 0; the bound applies to what is read.
  struct stat st {};
  auto block = util::read_open_file(fd_.get(), st, {kMaxEnvironBytes});
  if (!block) {
    return unreadable(path_, block.error().message);
  }
  return block;
}

}  // namespace reviewer::launch

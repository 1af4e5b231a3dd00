#include "core/launch/replace_file.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/exec/line_writer.h"
#include "core/util/unique_fd.h"

namespace reviewer::launch {
namespace {

util::Refusal unwritable(const std::string& shown, int err) {
  return util::refusal("report-unwritable", "cannot write " + shown + ": " + std::strerror(err));
}

}  // namespace

util::Status replace_file_at(int dir_fd, const std::string& name, std::string_view text,
                             const std::string& shown) {
  std::string temp;
  util::UniqueFd fd;
  // A step may have planted files under likely names; O_EXCL refuses them and the next name is
  // tried.
  for (int attempt = 0; attempt < 100 && !fd.valid(); ++attempt) {
    std::array<unsigned char, 8> bytes{};
    if (::getrandom(bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
      return unwritable(shown, errno);
    }
    temp = "." + name + ".";
    for (unsigned char b : bytes) {
      char hex[3];
      std::snprintf(hex, sizeof hex, "%02x", b);
      temp += hex;
    }
    fd.reset(
        ::openat(dir_fd, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!fd.valid() && errno != EEXIST) {
      return unwritable(shown, errno);
    }
  }
  if (!fd.valid()) {
    return unwritable(shown, EEXIST);
  }
  // The umask must not decide who can read the report.
  bool written = ::fchmod(fd.get(), 0644) == 0 && exec::write_all(fd.get(), text);
  int err = errno;
  if (::close(fd.release()) != 0 && written) {
    written = false;
    err = errno;
  }
  if (written && ::renameat(dir_fd, temp.c_str(), dir_fd, name.c_str()) == 0) {
    return util::ok_status();
  }
  err = written ? errno : err;
  ::unlinkat(dir_fd, temp.c_str(), 0);
  return unwritable(shown, err);
}

}  // namespace reviewer::launch

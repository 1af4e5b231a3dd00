#include "core/util/file_read.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace reviewer::util {

FileFault file_fault(const Refusal& e) {
  for (auto [code, fault] : {std::pair{kFileMissing, FileFault::kMissing},
                             {kFileSymlink, FileFault::kSymlink},
                             {kFileOpenFailed, FileFault::kOpenFailed},
                             {kFileNotRegular, FileFault::kNotRegular},
                             {kFileTooLarge, FileFault::kTooLarge},
                             {kFileReadFailed, FileFault::kReadFailed}}) {
    if (e.rule == code) {
      return fault;
    }
  }
  return FileFault::kNone;
}
namespace {

Refusal open_error(int err, bool follow_link) {
  if (err == ENOENT) {
    return refusal(kFileMissing, std::strerror(err));
  }
  if (err == ELOOP && !follow_link) {
    return refusal(kFileSymlink, std::strerror(err));
  }
  return refusal(kFileOpenFailed, std::strerror(err));
}

Refusal too_large(std::size_t max_bytes, const struct stat* st) {
  const std::string bound = "over the " + std::to_string(max_bytes) + "-byte bound";
  if (st == nullptr) {
    return refusal(kFileTooLarge, "is " + bound);
  }
  return refusal(kFileTooLarge, "is " + std::to_string(st->st_size) + " bytes, " + bound);
}

}  // namespace

Result<UniqueFd> open_regular_file(int dir_fd, const std::string& name, bool follow_link,
                                   struct stat& st) {
  const int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow_link ? 0 : O_NOFOLLOW);
  UniqueFd fd(::openat(dir_fd, name.c_str(), flags));
  if (!fd.valid()) {
    return open_error(errno, follow_link);
  }
  if (::fstat(fd.get(), &st) != 0) {
    return refusal(kFileReadFailed, std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return refusal(kFileNotRegular, "not a regular file");
  }
  return fd;
}

Result<std::string> read_open_file(int fd, const struct stat& st, const ReadLimits& limits) {
  if (!limits.truncate && static_cast<std::size_t>(st.st_size) > limits.max_bytes) {
    return too_large(limits.max_bytes, &st);
  }
  // Read straight into the text, sized by fstat plus one byte: a file that did not change is
  // read in one call and its end seen in the next. One byte past the bound tells a file that
  // grew after fstat from one that fits exactly.
  const std::size_t want_total = limits.max_bytes + (limits.truncate ? 0 : 1);
  std::string text(std::min(want_total, static_cast<std::size_t>(st.st_size) + 1), '\0');
  std::size_t size = 0;
  while (size < want_total) {
    if (size == text.size()) {
      text.resize(std::min(want_total, std::max<std::size_t>(2 * size, 16384)));
    }
    const ssize_t n = ::read(fd, text.data() + size, text.size() - size);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return refusal(kFileReadFailed, std::strerror(errno));
    }
    if (n == 0) {
      break;
    }
    size += static_cast<std::size_t>(n);
  }
  text.resize(size);
  if (text.size() > limits.max_bytes) {
    return too_large(limits.max_bytes, nullptr);
  }
  return text;
}

Result<std::string> read_regular_file(int dir_fd, const std::string& name,
                                      const ReadLimits& limits) {
  struct stat st {};
  auto fd = open_regular_file(dir_fd, name, limits.follow_link, st);
  if (!fd) {
    return fd.error();
  }
  return read_open_file(fd->get(), st, limits);
}

}  // namespace reviewer::util

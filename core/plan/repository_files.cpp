#include "core/plan/repository_files.h"

#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/util/file_read.h"
#include "core/util/text.h"
#include "core/util/unique_fd.h"

namespace reviewer::plan {

util::Result<std::string> WorktreeFiles::read(const std::string& path,
                                              std::size_t max_bytes) const {
  const auto parts = util::split_path(path);
  util::UniqueFd dir = util::open_directory(AT_FDCWD, root_.c_str());
  if (!dir.valid()) {
    return util::refusal(util::kFileOpenFailed, std::strerror(errno));
  }
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    util::UniqueFd next(
        ::openat(dir.get(), parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next.valid()) {
      const int err = errno;
      if (err == ENOENT) {
        return util::refusal(util::kFileMissing, std::strerror(err));
      }
      // O_NOFOLLOW on a link gives ELOOP, or ENOTDIR with O_DIRECTORY on some kernels: tell a
      // link from a plain file on the way.
      struct stat st {};
      if (::fstatat(dir.get(), parts[i].c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          S_ISLNK(st.st_mode)) {
        return util::refusal(util::kFileSymlink, "'" + parts[i] + "' is a symbolic link");
      }
      if (err == ENOTDIR) {
        return util::refusal(util::kFileMissing, "'" + parts[i] + "' is not a directory");
      }
      return util::refusal(util::kFileOpenFailed, std::strerror(err));
    }
    dir = std::move(next);
  }
  return util::read_regular_file(dir.get(), parts.back(), {max_bytes, false, true});
}

util::Result<std::string> MemoryFiles::read(const std::string& path, std::size_t max_bytes) const {
  auto it = files_.find(path);
  if (it == files_.end()) {
    return util::refusal(util::kFileMissing, "No such file or directory");
  }
  if (it->second == kSymlinkForTest) {
    return util::refusal(util::kFileSymlink, "Too many levels of symbolic links");
  }
  return it->second.substr(0, max_bytes);
}

}  // namespace reviewer::plan

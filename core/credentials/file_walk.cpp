#include "core/credentials/file_walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "core/util/unique_fd.h"

namespace reviewer::credentials {
namespace {

std::vector<std::string> names_in(int dir_fd) {
  std::vector<std::string> names;
  int copy = ::dup(dir_fd);
  DIR* dir = copy < 0 ? nullptr : ::fdopendir(copy);
  if (dir == nullptr) {
    if (copy >= 0) {
      ::close(copy);
    }
    return names;
  }
  while (const dirent* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) {
      names.emplace_back(e->d_name);
    }
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

bool first_walk(int dir_fd, WalkedDirectories& walked) {
  struct stat st {};
  return ::fstat(dir_fd, &st) == 0 && walked.emplace(st.st_dev, st.st_ino).second;
}

// `stopped` is set once `visit` returns false, and ends every level of the walk.
std::size_t walk_dir(int dir_fd, const std::string& path, int depth, int max_depth,
                     WalkedDirectories& walked, const std::function<bool(const WalkEntry&)>& visit,
                     bool& stopped) {
  std::size_t directories = 1;
  for (const auto& name : names_in(dir_fd)) {
    if (stopped) {
      break;
    }
    struct stat st {};
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      continue;
    }
    const std::string child = path == "/" ? "/" + name : path + "/" + name;
    if (!visit(WalkEntry{child, dir_fd, name.c_str(), st})) {
      stopped = true;
      break;
    }
    if (!S_ISDIR(st.st_mode) || depth >= max_depth) {
      continue;
    }
    util::UniqueFd sub(
        ::openat(dir_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (sub.valid() && first_walk(sub.get(), walked)) {
      directories += walk_dir(sub.get(), child, depth + 1, max_depth, walked, visit, stopped);
    }
  }
  return directories;
}

}  // namespace

std::size_t walk_tree(const std::string& root, int max_depth, WalkedDirectories& walked,
                      const std::function<bool(const WalkEntry&)>& visit) {
  util::UniqueFd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid() || !first_walk(fd.get(), walked) || max_depth < 1) {
    return 0;
  }
  bool stopped = false;
  return walk_dir(fd.get(), root, 1, max_depth, walked, visit, stopped);
}

void mark_walked(const std::string& dir, WalkedDirectories& walked) {
  util::UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.valid()) {
    first_walk(fd.get(), walked);
  }
}

std::vector<std::string> names_in_directory(const std::string& dir) {
  util::UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  return fd.valid() ? names_in(fd.get()) : std::vector<std::string>();
}

}  // namespace reviewer::credentials

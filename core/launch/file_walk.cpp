#include "core/launch/file_walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "core/util/unique_fd.h"

namespace reviewer::launch {
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

std::size_t walk_dir(int dir_fd, const std::string& path, int depth, int max_depth,
                     WalkedDirectories& walked,
                     const std::function<void(const WalkEntry&)>& visit) {
  std::size_t directories = 1;
  for (const auto& name : names_in(dir_fd)) {
    struct stat st {};
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      continue;
    }
    const std::string child = path == "/" ? "/" + name : path + "/" + name;
    visit(WalkEntry{child, dir_fd, name.c_str(), st});
    if (!S_ISDIR(st.st_mode) || depth >= max_depth) {
      continue;
    }
    util::UniqueFd sub(
        ::openat(dir_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (sub.valid() && first_walk(sub.get(), walked)) {
      directories += walk_dir(sub.get(), child, depth + 1, max_depth, walked, visit);
    }
  }
  return directories;
}

}  // namespace

std::size_t walk_tree(const std::string& root, int max_depth, WalkedDirectories& walked,
                      const std::function<void(const WalkEntry&)>& visit) {
  util::UniqueFd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid() || !first_walk(fd.get(), walked) || max_depth < 1) {
    return 0;
  }
  return walk_dir(fd.get(), root, 1, max_depth, walked, visit);
}

std::vector<std::string> names_in_directory(const std::string& dir) {
  util::UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  return fd.valid() ? names_in(fd.get()) : std::vector<std::string>();
}

util::Result<std::string> read_regular_file(int dir_fd, const char* name, std::size_t max_bytes,
                                            bool follow_link) {
  const int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow_link ? 0 : O_NOFOLLOW);
  util::UniqueFd fd(::openat(dir_fd, name, flags));
  if (!fd.valid()) {
    return util::make_error("io-error", errno == ELOOP ? "a symbolic link" : std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return util::make_error("io-error", std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return util::make_error("io-error", "not a regular file");
  }
  const std::string too_large = "larger than " + std::to_string(max_bytes) + " bytes";
  if (static_cast<std::size_t>(st.st_size) > max_bytes) {
    return util::make_error("io-error", too_large);
  }
  std::string text;
  char buf[16384];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return util::make_error("io-error", std::strerror(errno));
    }
    if (n == 0) {
      return text;
    }
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) {  // it grew after fstat
      return util::make_error("io-error", too_large);
    }
  }
}

}  // namespace reviewer::launch

#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/util/result.h"

namespace reviewer::credentials {

// One entry met by walk_tree: its path for messages, and the directory descriptor, name and
// lstat data to read it by without resolving the path again.
struct WalkEntry {
  const std::string& path;
  int dir_fd;
  const char* name;
  const struct stat& st;
};

// Directories already walked, by device and inode, so that a tree reached twice (a home inside
// another, /var/run beside /run) is read once.
using WalkedDirectories = std::set<std::pair<dev_t, ino_t>>;

// Calls `visit` for every entry below `root` in name order, never following a symbolic link
// (a link is visited as itself), until `visit` returns false. Directories more than `max_depth`
// levels below `root` are not opened; directories that cannot be opened or were walked before are
// skipped silently. `root` itself may be a link (the caller chose it); a missing root is an empty
// tree. Returns the number of directories read.
std::size_t walk_tree(const std::string& root, int max_depth, WalkedDirectories& walked,
                      const std::function<bool(const WalkEntry&)>& visit);

// Counts the directory `dir` (a link to it followed) as walked, so that no walk enters it; a
// missing one is ignored.
void mark_walked(const std::string& dir, WalkedDirectories& walked);

// The names in the directory `dir` (a link to it followed) but "." and "..", sorted; empty when
// it cannot be read.
std::vector<std::string> names_in_directory(const std::string& dir);

}  // namespace reviewer::credentials

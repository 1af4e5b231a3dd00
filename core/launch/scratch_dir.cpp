#include "core/launch/scratch_dir.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "core/util/tree_removal.h"

namespace reviewer::launch {

util::Result<ScratchDir> ScratchDir::record(const std::string& path) {
  util::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) {
    if (errno == ENOENT) {
      return ScratchDir(util::UniqueFd(), path);
    }
    return util::refusal("cleanup-failed", "cannot open '" + path + "': " + std::strerror(errno));
  }
  return record(std::move(fd), path);
}

util::Result<ScratchDir> ScratchDir::record(util::UniqueFd dir, std::string path) {
  auto names = util::list_directory(dir.get(), path);
  if (!names) {
    return names.error();
  }
  ScratchDir out(std::move(dir), std::move(path));
  out.baseline_.insert(names->begin(), names->end());
  return out;
}

ScratchDir ScratchDir::adopt_fresh(util::UniqueFd dir, std::string path) {
  return ScratchDir(std::move(dir), std::move(path));
}

util::Status ScratchDir::own(const std::string& name, int dir) {
  struct stat st {};
  if (::fstat(dir, &st) != 0) {
    return util::refusal("cleanup-failed",
                         "cannot inspect '" + path_ + "/" + name + "': " + std::strerror(errno));
  }
  own_ = Identity{name, st.st_dev, st.st_ino};
  baseline_.erase(name);
  return util::ok_status();
}

bool ScratchDir::is_own(const std::string& name) const {
  struct stat st {};
  return own_ && ::fstatat(fd_.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
         S_ISDIR(st.st_mode) && st.st_dev == own_->dev && st.st_ino == own_->ino;
}

util::Status ScratchDir::sweep() {
  if (!fd_.valid()) {
    return util::ok_status();
  }
  auto names = util::list_directory(fd_.get(), path_);
  if (!names) {
    return names.error();
  }
  for (const auto& name : *names) {
    if (is_own(name) || baseline_.count(name) != 0) {
      continue;
    }
    if (auto removed = util::remove_entry(fd_.get(), name, path_ + "/" + name); !removed) {
      return removed;
    }
  }
  return util::ok_status();
}

util::Result<bool> ScratchDir::restore_own() {
  if (!own_ || is_own(own_->name)) {
    return true;
  }
  auto names = util::list_directory(fd_.get(), path_);
  if (!names) {
    return names.error();
  }
  for (const auto& name : *names) {
    if (!is_own(name)) {
      continue;
    }
    const std::string shown = path_ + "/" + own_->name;
    if (auto removed = util::remove_entry(fd_.get(), own_->name, shown); !removed) {
      return removed.error();
    }
    if (::renameat(fd_.get(), name.c_str(), fd_.get(), own_->name.c_str()) != 0) {
      return util::refusal("cleanup-failed", "cannot move '" + path_ + "/" + name + "' back to '" +
                                                 shown + "': " + std::strerror(errno));
    }
    return true;
  }
  // Whatever holds the name now is not the launcher's; it goes either way.
  if (auto removed = util::remove_entry(fd_.get(), own_->name, path_ + "/" + own_->name);
      !removed) {
    return removed.error();
  }
  return false;
}

}  // namespace reviewer::launch

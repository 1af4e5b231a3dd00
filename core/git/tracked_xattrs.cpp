#include "core/git/tracked_xattrs.h"

#include <sys/xattr.h>

#include <cerrno>
#include <vector>

#include "core/git/repository.h"
#include "core/git/rules.h"
#include "core/util/sha256.h"
#include "core/util/unique_fd.h"

namespace reviewer::git::detail {
namespace {

constexpr const char* kWhy =
    "; git carries no extended attributes, so a job set it, and on GitHub the next job gets a "
    "fresh clone";

// The directory of tracked paths the walk is in, reopened only when the index moves on to
// another one (the index is sorted by path).
class ParentDir {
 public:
  explicit ParentDir(const std::string& worktree)
      : root_(util::open_directory(AT_FDCWD, worktree.c_str())) {}

  // The descriptor of `dir` ("" is the worktree), or -1 when a component cannot be opened
  // without following a link (the status check reports those).
  int open(const std::string& dir) {
    if (dir.empty()) {
      return root_.get();
    }
    if (dir == path_) {
      return fd_.get();
    }
    path_ = dir;
    fd_.reset();
    util::UniqueFd at;
    int parent = root_.get();
    for (std::size_t start = 0;;) {
      const std::size_t slash = dir.find('/', start);
      const std::string part =
          dir.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
      util::UniqueFd next = util::open_directory(parent, part.c_str());
      if (!next.valid()) {
        return -1;
      }
      at = std::move(next);
      parent = at.get();
      if (slash == std::string::npos) {
        break;
      }
      start = slash + 1;
    }
    fd_ = std::move(at);
    return fd_.get();
  }

 private:
  util::UniqueFd root_;
  std::string path_;  // the directory fd_ is, when not empty
  util::UniqueFd fd_;
};

// The user.* attributes of `name` in the directory `dir`, by name, values hashed.
std::map<std::string, std::string> user_xattrs(int dir, const std::string& name) {
  std::map<std::string, std::string> out;
  // The l* calls do not follow the entry; the directory is reached through our descriptor.
  const std::string path = "/proc/self/fd/" + std::to_string(dir) + "/" + name;
  const ssize_t size = ::llistxattr(path.c_str(), nullptr, 0);
  if (size <= 0) {
    return out;
  }
  std::vector<char> names(static_cast<std::size_t>(size));
  const ssize_t got = ::llistxattr(path.c_str(), names.data(), names.size());
  if (got <= 0) {
    return out;
  }
  for (std::size_t at = 0; at < static_cast<std::size_t>(got);) {
    const std::string key(names.data() + at);
    at += key.size() + 1;
    if (!key.starts_with("user.")) {
      continue;  // security.* and trusted.* are the host's and root's, not a step's
    }
    std::string value;
    const ssize_t vsize = ::lgetxattr(path.c_str(), key.c_str(), nullptr, 0);
    if (vsize > 0) {
      value.resize(static_cast<std::size_t>(vsize));
      const ssize_t vgot = ::lgetxattr(path.c_str(), key.c_str(), value.data(), value.size());
      value.resize(vgot > 0 ? static_cast<std::size_t>(vgot) : 0);
    }
    out[key] = util::sha256_hex(value);
  }
  return out;
}

}  // namespace

XattrPin tracked_xattrs(git_index* index, const std::string& worktree) {
  XattrPin out;
  ParentDir parent(worktree);
  const std::size_t n = git_index_entrycount(index);
  for (std::size_t i = 0; i < n; ++i) {
    const git_index_entry* e = git_index_get_byindex(index, i);
    const std::string path = e->path;
    const std::size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash);
    const int fd = parent.open(dir);
    if (fd < 0) {
      continue;
    }
    auto attrs = user_xattrs(fd, slash == std::string::npos ? path : path.substr(slash + 1));
    if (!attrs.empty()) {
      out[path] = std::move(attrs);
    }
  }
  return out;
}

util::Status compare_xattrs(const XattrPin& now, const XattrPin& pin) {
  report::Refusals out;
  const std::string rule(kRuleTrackedXattr);
  static const std::map<std::string, std::string> kNone;
  auto of = [](const XattrPin& p, const std::string& path) -> const auto& {
    auto it = p.find(path);
    return it == p.end() ? kNone : it->second;
  };
  auto refuse = [&](const std::string& path, const std::string& what) {
    out.push_back({rule, "'" + path + "' " + what + kWhy, util::SourceLocation{path}});
  };
  for (const auto& [path, attrs] : now) {
    const auto& was = of(pin, path);
    for (const auto& [key, digest] : attrs) {
      auto it = was.find(key);
      if (it == was.end()) {
        refuse(path, "has extended attribute '" + key + "' that it did not have at the first job");
      } else if (it->second != digest) {
        refuse(path, "has extended attribute '" + key + "' changed since the first job");
      }
    }
  }
  for (const auto& [path, attrs] : pin) {
    const auto& is = of(now, path);
    for (const auto& [key, digest] : attrs) {
      if (!is.contains(key)) {
        refuse(path, "lost extended attribute '" + key + "' it had at the first job");
      }
    }
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::git::detail

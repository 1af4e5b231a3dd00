#include "core/git/tracked_xattrs.h"

#include <sys/stat.h>
#include <sys/xattr.h>

#include <cerrno>
#include <string_view>
#include <vector>

#include "core/git/index_entries.h"
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

// Lists the attributes of every index entry but those `settled(i, path)` vouches for, which
// are taken from `pin`; `seen(i, dir_fd, name)` runs before each listing.
template <class Settled, class Seen>
XattrPin scan(const IndexEntries& index, const std::string& worktree, const XattrPin& pin,
              Settled&& settled, Seen&& seen) {
  XattrPin out;
  ParentDir parent(worktree);
  const std::size_t n = index.size();
  for (std::size_t i = 0; i < n; ++i) {
    const git_index_entry* e = index.at(i);
    const std::string path = e->path;
    if (settled(i, path)) {
      if (auto it = pin.find(path); it != pin.end()) {
        out[path] = it->second;
      }
      continue;
    }
    const std::size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash);
    const int fd = parent.open(dir);
    if (fd < 0) {
      continue;
    }
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    seen(i, fd, name);
    auto attrs = user_xattrs(fd, name);
    if (!attrs.empty()) {
      out[path] = std::move(attrs);
    }
  }
  return out;
}

std::int64_t to_ns(const timespec& t) {
  return static_cast<std::int64_t>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

// Whether the index holds exactly the paths `paths` records, in order.
bool same_paths(const IndexEntries& index, const std::string& paths) {
  const std::size_t n = index.size();
  std::size_t at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view p = index.at(i)->path;
    if (paths.size() - at < p.size() + 1 || paths.compare(at, p.size(), p) != 0 ||
        paths[at + p.size()] != '\0') {
      return false;
    }
    at += p.size() + 1;
  }
  return at == paths.size();
}

}  // namespace

XattrPin tracked_xattrs(const IndexEntries& index, const std::string& worktree) {
  const XattrPin none;
  return scan(
      index, worktree, none, [](std::size_t, const std::string&) { return false; },
      [](std::size_t, int, const std::string&) {});
}

XattrPin tracked_xattrs(const IndexEntries& index, const std::string& worktree,
                        std::int64_t settled_before_ns, SettledInodes& settled) {
  const std::size_t n = index.size();
  settled = SettledInodes{};
  settled.inos.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    settled.paths += index.at(i)->path;
    settled.paths += '\0';
  }
  struct stat root {};
  if (::stat(worktree.c_str(), &root) == 0) {
    settled.dev = root.st_dev;
  }
  const XattrPin none;
  return scan(
      index, worktree, none, [](std::size_t, const std::string&) { return false; },
      [&](std::size_t i, int dir, const std::string& name) {
        struct stat st {};
        if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            st.st_dev == settled.dev && to_ns(st.st_ctim) < settled_before_ns) {
          settled.inos[i] = st.st_ino;
        }
      });
}

XattrPin tracked_xattrs_since(const IndexEntries& index, const std::string& worktree,
                              const XattrPin& pin, const SettledInodes& at_pin, std::uint64_t dev,
                              const std::vector<std::uint64_t>& inos) {
  const std::size_t n = index.size();
  const bool usable = dev == at_pin.dev && inos.size() == n && at_pin.inos.size() == n &&
                      same_paths(index, at_pin.paths);
  return scan(
      index, worktree, pin,
      [&](std::size_t i, const std::string&) {
        return usable && at_pin.inos[i] != 0 && inos[i] == at_pin.inos[i];
      },
      [](std::size_t, int, const std::string&) {});
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

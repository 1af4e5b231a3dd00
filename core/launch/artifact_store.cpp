#include "core/launch/artifact_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "core/exec/line_writer.h"
#include "core/util/file_read.h"
#include "core/util/text.h"
#include "core/util/unique_fd.h"

namespace reviewer::launch {
namespace {

constexpr std::size_t kMaxPath = 4096;

// A relative path of plain components ("" = none); nullopt for anything else (absolute, empty,
// '.' or '..' components, a NUL byte, over 4096 bytes).
std::optional<std::vector<std::string>> plain_parts(const std::string& path) {
  std::vector<std::string> parts;
  if (path.empty()) {
    return parts;
  }
  if (path.size() > kMaxPath || path.front() == '/' || path.find('\0') != std::string::npos) {
    return std::nullopt;
  }
  for (std::size_t at = 0; at <= path.size();) {
    const auto slash = path.find('/', at);
    const auto end = slash == std::string::npos ? path.size() : slash;
    std::string part = path.substr(at, end - at);
    if (part.empty() || part == "." || part == "..") {
      return std::nullopt;
    }
    parts.push_back(std::move(part));
    at = end + 1;
  }
  return parts;
}

util::Refusal not_plain(const std::string& what, const std::string& path) {
  return util::refusal("artifact-path-refused", what + " " + util::quote(path) +
                                                    " is not a plain relative path (no leading "
                                                    "'/', no empty, '.' or '..' component)");
}

std::string join(const std::vector<std::string>& parts, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    out += (i == 0 ? "" : "/") + parts[i];
  }
  return out;
}

// Opens the directory `parts[0..n)` below `root` one component at a time without following a
// link; with `create`, missing directories are made. nullopt (no error) when one is missing.
util::Result<std::optional<util::UniqueFd>> open_dirs(int root,
                                                      const std::vector<std::string>& parts,
                                                      std::size_t n, bool create,
                                                      const char* rule) {
  util::UniqueFd dir(::fcntl(root, F_DUPFD_CLOEXEC, 0));
  for (std::size_t i = 0; dir.valid() && i < n; ++i) {
    if (create && ::mkdirat(dir.get(), parts[i].c_str(), 0777) != 0 && errno != EEXIST) {
      return util::refusal(
          rule, util::quote(join(parts, i + 1)) + " cannot be made: " + std::strerror(errno));
    }
    util::UniqueFd next(
        ::openat(dir.get(), parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next.valid()) {
      if (errno == ENOENT && !create) {
        return std::optional<util::UniqueFd>();
      }
      return util::refusal(rule, util::quote(join(parts, i + 1)) +
                                     " is a link or not a directory; the review follows no link "
                                     "in the worktree (" +
                                     std::strerror(errno) + ")");
    }
    dir = std::move(next);
  }
  if (!dir.valid()) {
    return util::refusal("internal-error", "cannot open the worktree");
  }
  return std::optional<util::UniqueFd>(std::move(dir));
}

ArtifactStore::Kind kind_of(mode_t mode) {
  if (S_ISREG(mode)) {
    return ArtifactStore::Kind::kFile;
  }
  if (S_ISDIR(mode)) {
    return ArtifactStore::Kind::kDirectory;
  }
  return S_ISLNK(mode) ? ArtifactStore::Kind::kLink : ArtifactStore::Kind::kOther;
}

util::Result<std::vector<std::string>> sorted_names(int dir) {
  util::UniqueFd copy(::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  DIR* d = copy.valid() ? ::fdopendir(copy.get()) : nullptr;
  if (d == nullptr) {
    return util::refusal("artifact-source-refused",
                         std::string("cannot list a directory: ") + std::strerror(errno));
  }
  (void)copy.release();
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") {
      names.push_back(name);
    }
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

util::Result<std::optional<std::vector<ArtifactStore::Entry>>> ArtifactStore::walk(
    const std::string& workspace, const std::string& dir) const {
  auto parts = plain_parts(dir);
  if (!parts) {
    return not_plain("the search path", dir);
  }
  util::UniqueFd ws = util::open_directory(AT_FDCWD, workspace.c_str());
  if (!ws.valid()) {
    return util::refusal("internal-error", "cannot open the worktree " + workspace);
  }
  const std::size_t parents = parts->empty() ? 0 : parts->size() - 1;
  auto parent = open_dirs(ws.get(), *parts, parents, false, "artifact-link");
  if (!parent) {
    return parent.error();
  }
  if (!*parent) {
    return std::optional<std::vector<Entry>>();
  }
  std::vector<Entry> out;
  struct Pending {
    util::UniqueFd fd;
    std::string path;
    std::size_t depth;
  };
  std::vector<Pending> stack;
  if (parts->empty()) {
    out.push_back({"", Kind::kDirectory});
    stack.push_back({std::move(**parent), "", 0});
  } else {
    struct stat st {};
    if (::fstatat((*parent)->get(), parts->back().c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return std::optional<std::vector<Entry>>();
    }
    out.push_back({dir, kind_of(st.st_mode)});
    if (S_ISDIR(st.st_mode)) {
      util::UniqueFd fd(::openat((*parent)->get(), parts->back().c_str(),
                                 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (!fd.valid()) {
        return util::refusal("artifact-source-refused",
                             util::quote(dir) + " cannot be opened: " + std::strerror(errno));
      }
      stack.push_back({std::move(fd), dir, 0});
    }
  }
  // Depth first, so parents come before their children; each directory's names in byte order.
  while (!stack.empty()) {
    Pending top = std::move(stack.back());
    stack.pop_back();
    if (top.depth >= bounds_.max_depth) {
      return util::refusal("artifact-too-large", util::quote(top.path) + " is more than " +
                                                     std::to_string(bounds_.max_depth) +
                                                     " levels deep");
    }
    auto names = sorted_names(top.fd.get());
    if (!names) {
      return names.error();
    }
    std::vector<Pending> children;
    for (const auto& name : *names) {
      struct stat st {};
      if (::fstatat(top.fd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        continue;  // gone since it was listed
      }
      const std::string path = top.path.empty() ? name : top.path + "/" + name;
      out.push_back({path, kind_of(st.st_mode)});
      if (out.size() > bounds_.max_walk_entries) {
        return util::refusal("artifact-too-large",
                             "the search below " + util::quote(dir) + " met more than " +
                                 std::to_string(bounds_.max_walk_entries) + " entries");
      }
      if (S_ISDIR(st.st_mode)) {
        util::UniqueFd fd(
            ::openat(top.fd.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (fd.valid()) {
          children.push_back({std::move(fd), path, top.depth + 1});
        }
      }
    }
    // Entries are reported as met; directories are then entered in reverse so the first name is
    // walked first. Holding at most one level of descriptors per depth keeps the count bounded.
    for (auto it = children.rbegin(); it != children.rend(); ++it) {
      stack.push_back(std::move(*it));
    }
  }
  return std::optional<std::vector<Entry>>(std::move(out));
}

util::Status ArtifactStore::store(const std::string& workspace, const std::string& name,
                                  const std::vector<Source>& files) {
  if (artifacts_.contains(name)) {
    return util::refusal("artifact-name-not-unique",
                         "artifact " + util::quote(name) + " was uploaded already in this run");
  }
  util::UniqueFd ws = util::open_directory(AT_FDCWD, workspace.c_str());
  if (!ws.valid()) {
    return util::refusal("internal-error", "cannot open the worktree " + workspace);
  }
  std::vector<File> kept;
  std::set<std::string> paths;
  std::uint64_t bytes = bytes_;
  for (const auto& f : files) {
    auto inside = plain_parts(f.path);
    if (!inside || inside->empty() || !paths.insert(f.path).second) {
      return not_plain("the path inside the artifact (or given twice)", f.path);
    }
    auto parts = plain_parts(f.source);
    if (!parts || parts->empty()) {
      return not_plain("the file", f.source);
    }
    if (files_ + kept.size() + 1 > bounds_.max_files) {
      return util::refusal("artifact-too-large", "the review keeps at most " +
                                                     std::to_string(bounds_.max_files) +
                                                     " artifact files in one build");
    }
    auto dir = open_dirs(ws.get(), *parts, parts->size() - 1, false, "artifact-link");
    if (!dir) {
      return dir.error();
    }
    if (!*dir) {
      return util::refusal("artifact-source-refused", util::quote(f.source) + " no longer exists");
    }
    struct stat st {};
    auto fd = util::open_regular_file((*dir)->get(), parts->back(), false, st);
    if (!fd) {
      const bool link = util::file_fault(fd.error()) == util::FileFault::kSymlink;
      return util::refusal(
          link ? "artifact-link" : "artifact-source-refused",
          util::quote(f.source) + (link ? " is a link; the review follows no link in the worktree"
                                        : " cannot be read: " + fd.error().message));
    }
    const std::uint64_t room = bounds_.max_bytes - std::min(bytes, bounds_.max_bytes);
    auto text = util::read_open_file(fd->get(), st, {static_cast<std::size_t>(room), false, false});
    if (!text) {
      const bool big = util::file_fault(text.error()) == util::FileFault::kTooLarge;
      return util::refusal(
          big ? "artifact-too-large" : "artifact-source-refused",
          util::quote(f.source) + (big ? " would take the build's artifacts over " +
                                             std::to_string(bounds_.max_bytes) + " bytes"
                                       : " cannot be read: " + text.error().message));
    }
    bytes += text->size();
    kept.push_back({f.path, std::move(*text)});
  }
  files_ += kept.size();
  bytes_ = bytes;
  artifacts_.emplace(name, std::move(kept));
  order_.push_back(name);
  return util::ok_status();
}

util::Result<bool> ArtifactStore::restore(const std::string& workspace, const std::string& name,
                                          const std::string& dir) const {
  auto found = artifacts_.find(name);
  if (found == artifacts_.end()) {
    return false;
  }
  auto base = plain_parts(dir);
  if (!base) {
    return not_plain("the destination", dir);
  }
  util::UniqueFd ws = util::open_directory(AT_FDCWD, workspace.c_str());
  if (!ws.valid()) {
    return util::refusal("internal-error", "cannot open the worktree " + workspace);
  }
  for (const auto& file : found->second) {
    auto parts = *base;
    auto inside = plain_parts(file.path);  // checked when stored
    parts.insert(parts.end(), inside->begin(), inside->end());
    auto parent =
        open_dirs(ws.get(), parts, parts.size() - 1, true, "artifact-destination-refused");
    if (!parent) {
      return parent.error();
    }
    const int at = (**parent).get();
    const std::string shown = util::quote(join(parts, parts.size()));
    struct stat st {};
    if (::fstatat(at, parts.back().c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
      if (S_ISDIR(st.st_mode) || ::unlinkat(at, parts.back().c_str(), 0) != 0) {
        return util::refusal("artifact-destination-refused",
                             shown + " is in the way and cannot be replaced (" +
                                 (S_ISDIR(st.st_mode) ? std::string("a directory")
                                                      : std::string(std::strerror(errno))) +
                                 ")");
      }
    }
    util::UniqueFd out(::openat(at, parts.back().c_str(),
                                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
                                0666));
    if (!out.valid() || !exec::write_all(out.get(), file.bytes)) {
      return util::refusal("artifact-destination-refused",
                           shown + " cannot be written: " + std::strerror(errno));
    }
  }
  return true;
}

}  // namespace reviewer::launch

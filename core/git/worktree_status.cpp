#include "core/git/worktree_status.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <thread>
#include <unordered_set>

#include "core/git/index_tree.h"
#include "core/git/rules.h"
#include "core/util/unique_fd.h"

namespace reviewer::git::detail {
namespace {

constexpr int kMaxDepth = 256;
// Past this many walks the disk, not the CPU, is the limit.
constexpr size_t kMaxWalks = 16;

std::int64_t to_ns(const timespec& t) {
  return static_cast<std::int64_t>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}
std::int64_t to_ns(const git_index_time& t) {
  return static_cast<std::int64_t>(t.seconds) * 1000000000LL + t.nanoseconds;
}

std::uint32_t normalized_mode(std::uint32_t mode) {
  // Trees may carry legacy 100664 and friends; git treats every non-executable blob as 100644.
  if ((mode & 0170000) == 0100000) {
    return (mode & 0100) != 0 ? 0100755 : 0100644;
  }
  return mode;
}

// HEAD's tree against the index, merged in path order (the tree's pre-order walk yields the
// index's sort order).
class HeadIndexCompare {
 public:
  HeadIndexCompare(const IndexEntries& index, std::vector<PathChange>& out)
      : index_(index), out_(out) {
    count_ = index.size();
  }

  util::Status run(git_repository* repo) {
    git_object* raw = nullptr;
    // git_revparse/peel never consult refs/replace in libgit2 (it has no replace support).
    if (git_revparse_single(&raw, repo, "HEAD^{tree}") != 0) {
      return last_error(kRuleCleanClone, "cannot read HEAD's tree");
    }
    TreePtr tree(reinterpret_cast<git_tree*>(raw));
    // Hashing the index's trees costs a fraction of reading every tree of HEAD from the object
    // store (the walk was a third of the check's instructions); the walk names what differs.
    git_oid from_index;
    if (index_tree_id(index_, &from_index) && git_oid_equal(&from_index, git_tree_id(tree.get()))) {
      return util::ok_status();
    }
    if (git_tree_walk(tree.get(), GIT_TREEWALK_PRE, &HeadIndexCompare::visit, this) != 0) {
      return last_error(kRuleCleanClone, "cannot walk HEAD's tree");
    }
    for (; pos_ < count_; ++pos_) {
      added(index_.at(pos_));
    }
    return util::ok_status();
  }

 private:
  static int visit(const char* root, const git_tree_entry* entry, void* payload) {
    auto* self = static_cast<HeadIndexCompare*>(payload);
    if (git_tree_entry_type(entry) == GIT_OBJECT_TREE) {
      return 0;
    }
    self->path_.assign(root);
    self->path_.append(git_tree_entry_name(entry));
    self->tree_entry(entry);
    return 0;
  }

  void added(const git_index_entry* e) {
    if (e == nullptr) {
      return;
    }
    out_.push_back({e->path, GIT_INDEX_ENTRY_STAGE(e) != 0 ? "unmerged" : "added to the index"});
  }

  void tree_entry(const git_tree_entry* entry) {
    while (pos_ < count_) {
      const git_index_entry* e = index_.at(pos_);
      const int cmp = std::strcmp(e->path, path_.c_str());
      if (cmp > 0) {
        break;
      }
      if (cmp < 0) {
        added(e);
        ++pos_;
        continue;
      }
      // Same path: every stage must be 0 and id and mode must match.
      if (GIT_INDEX_ENTRY_STAGE(e) != 0) {
        out_.push_back({path_, "unmerged"});
      } else if (!git_oid_equal(&e->id, git_tree_entry_id(entry))) {
        out_.push_back({path_, "staged content differs from HEAD"});
      } else if (normalized_mode(e->mode) !=
                 normalized_mode(static_cast<std::uint32_t>(git_tree_entry_filemode(entry)))) {
        out_.push_back({path_, "staged mode differs from HEAD"});
      }
      ++pos_;
      // Further stages of the same path are unmerged entries.
      while (pos_ < count_ && std::strcmp(index_.at(pos_)->path, path_.c_str()) == 0) {
        out_.push_back({path_, "unmerged"});
        ++pos_;
      }
      return;
    }
    out_.push_back({path_, "removed from the index"});
  }

  const IndexEntries& index_;
  std::vector<PathChange>& out_;
  size_t count_ = 0;
  size_t pos_ = 0;
  std::string path_;
};

// The index against the worktree. The index is walked in path order (all entries under one
// directory are contiguous), each tracked name is fstat'ed relative to its directory's fd, and a
// directory holds nothing untracked iff its entry count equals the number of distinct names
// the index puts there (every one of which was just found): only a directory whose count
// differs is compared name by name. No hash of the whole index is ever built.
class WorkdirCompare {
 public:
  // `settled` is shared by the walks: each writes only the positions of its own slice.
  WorkdirCompare(const IndexEntries& index, std::int64_t content_after_ns,
                 std::int64_t index_mtime_ns, WorktreeStatus& out, std::uint64_t dev,
                 std::uint64_t* settled)
      : index_(index),
        count_(index.size()),
        content_after_ns_(content_after_ns),
        index_mtime_ns_(index_mtime_ns),
        out_(out),
        dev_(dev),
        settled_(settled) {}

  // Entries whose stat data could not vouch for them; compared by content afterwards.
  const std::vector<size_t>& needs_content() const { return needs_content_; }

  // Walks index positions [lo, hi), which must start and end at a boundary between top-level
  // names. The root directory itself is left to the caller (several walks share it): its
  // expected name count is added to `root_expected`.
  util::Status run(int root_fd, size_t lo, size_t hi, size_t& root_expected) {
    util::UniqueFd fd(::dup(root_fd));
    if (!fd.valid()) {
      return util::refusal(std::string(kRuleWorktreeUnreadable),
                           std::string("cannot open the worktree: ") + std::strerror(errno));
    }
    stack_.push_back(Frame{"", std::move(fd), 0, lo, true});
    for (size_t i = lo; i < hi; ++i) {
      const git_index_entry* e = index_.at(i);
      if (GIT_INDEX_ENTRY_STAGE(e) != 0) {
        continue;  // reported by the HEAD comparison
      }
      const std::string_view path = e->path;
      const auto slash = path.rfind('/');
      const std::string_view dir =
          slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash + 1);
      while (stack_.size() > 1 && !dir.starts_with(stack_.back().path)) {
        if (auto st = finish(i); !st) {
          return st;
        }
      }
      if (stack_.size() > static_cast<size_t>(kMaxDepth)) {
        return util::refusal(std::string(kRuleWorktreeUnreadable),
                             "'" + std::string(dir) + "' is nested deeper than " +
                                 std::to_string(kMaxDepth) + " directories");
      }
      while (stack_.back().path.size() < dir.size()) {
        enter(dir, i);
      }
      Frame& top = stack_.back();
      ++top.expected;
      if (!top.ok) {
        out_.changed.push_back({e->path, "deleted"});
        continue;
      }
      compare_entry(top.fd.get(), e->path + top.path.size(), e, i);
    }
    while (stack_.size() > 1) {
      if (auto st = finish(hi); !st) {
        return st;
      }
    }
    root_expected += stack_.back().expected;
    stack_.clear();
    return util::ok_status();
  }

  // Compares the root directory's names with the index (whose entries span [0, end)).
  util::Status check_root(int root_fd, size_t expected, size_t end) {
    util::UniqueFd fd(::dup(root_fd));
    stack_.push_back(Frame{"", std::move(fd), expected, 0, true});
    return finish(end);
  }

 private:
  struct Frame {
    std::string path;  // "a/b/", "" for the root
    util::UniqueFd fd;
    size_t expected;     // distinct names the index puts directly in this directory
    size_t first_entry;  // index position of the first entry below it
    bool ok;             // opened as a real directory
  };

  void enter(std::string_view dir, size_t i) {
    Frame& top = stack_.back();
    const size_t start = top.path.size();
    const std::string name(dir.substr(start, dir.find('/', start) - start));
    ++top.expected;
    util::UniqueFd fd;
    bool ok = false;
    if (top.ok) {
      fd.reset(
          ::openat(top.fd.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      ok = fd.valid();
      struct stat st {};
      // A file or symlink where the index wants a directory is itself an untracked path.
      if (!ok && ::fstatat(top.fd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
        out_.created.push_back(top.path + name);
      }
    }
    stack_.push_back(Frame{top.path + name + "/", std::move(fd), 0, i, ok});
  }

  // Leaves the innermost directory (whose entries end before index position `end`).
  util::Status finish(size_t end) {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (!frame.ok) {
      return util::ok_status();
    }
    util::UniqueFd dup_fd(::dup(frame.fd.get()));
    DIR* dir = dup_fd.valid() ? ::fdopendir(dup_fd.get()) : nullptr;
    if (dir == nullptr) {
      return util::refusal(std::string(kRuleWorktreeUnreadable),
                           "cannot list '" + frame.path + "': " + std::strerror(errno));
    }
    dup_fd.release();
    struct DirCloser {
      DIR* d;
      ~DirCloser() { ::closedir(d); }
    } closer{dir};
    const bool root = frame.path.empty();
    size_t names = 0;
    while (const dirent* e = ::readdir(dir)) {
      if (!skipped(e->d_name, root)) {
        ++names;
      }
    }
    if (names == frame.expected) {
      return util::ok_status();
    }
    // Slow path: which names are extra?
    std::unordered_set<std::string_view> known;
    for (size_t i = frame.first_entry; i < end; ++i) {
      const std::string_view p = index_.at(i)->path;
      if (!p.starts_with(frame.path)) {
        continue;
      }
      const std::string_view rest = p.substr(frame.path.size());
      known.insert(rest.substr(0, rest.find('/')));
    }
    ::rewinddir(dir);
    while (const dirent* e = ::readdir(dir)) {
      if (skipped(e->d_name, root) || known.contains(e->d_name)) {
        continue;
      }
      unsigned char type = e->d_type;
      struct stat st {};
      if (type == DT_UNKNOWN &&
          ::fstatat(frame.fd.get(), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
      }
      out_.created.push_back(frame.path + e->d_name + (type == DT_DIR ? "/" : ""));
    }
    return util::ok_status();
  }

  static bool skipped(std::string_view name, bool root) {
    return name == "." || name == ".." || (root && name == ".git");
  }

  void compare_entry(int dir_fd, const char* name, const git_index_entry* e, size_t pos) {
    struct stat st {};
    if (::fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      out_.changed.push_back({e->path, "deleted"});
      return;
    }
    if (settled_ != nullptr && st.st_dev == dev_ && to_ns(st.st_ctim) < content_after_ns_) {
      settled_[pos] = st.st_ino;
    }
    const std::uint32_t kind = e->mode & 0170000;
    if (kind == 0160000) {  // a submodule: a clone leaves an empty directory
      if (!S_ISDIR(st.st_mode)) {
        out_.changed.push_back({e->path, "type changed"});
      } else if (!empty_dir(dir_fd, name)) {
        out_.changed.push_back({e->path, "submodule directory is not empty"});
      }
      return;
    }
    const bool want_link = kind == 0120000;
    if (want_link ? !S_ISLNK(st.st_mode) : !S_ISREG(st.st_mode)) {
      out_.changed.push_back({e->path, "type changed"});
      return;
    }
    if (!want_link && ((st.st_mode & S_IXUSR) != 0) != ((e->mode & 0100) != 0)) {
      out_.changed.push_back({e->path, "mode changed"});
      return;
    }
    const bool stat_clean = to_ns(st.st_mtim) == to_ns(e->mtime) &&
                            to_ns(st.st_ctim) == to_ns(e->ctime) &&
                            static_cast<std::uint32_t>(st.st_ino) == e->ino &&
                            static_cast<std::uint32_t>(st.st_size) == e->file_size;
    const bool racy = to_ns(e->mtime) >= index_mtime_ns_;
    const bool rewritten = to_ns(st.st_ctim) >= content_after_ns_;
    if (stat_clean && !racy && !rewritten) {
      return;
    }
    needs_content_.push_back(pos);
  }

  static bool empty_dir(int dir_fd, const char* name) {
    util::UniqueFd fd(::openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd.valid()) {
      return false;
    }
    DIR* d = ::fdopendir(fd.get());
    if (d == nullptr) {
      return false;
    }
    fd.release();
    bool empty = true;
    while (const dirent* e = ::readdir(d)) {
      const std::string_view n = e->d_name;
      if (n != "." && n != "..") {
        empty = false;
        break;
      }
    }
    ::closedir(d);
    return empty;
  }

  const IndexEntries& index_;
  size_t count_;
  std::int64_t content_after_ns_;
  std::int64_t index_mtime_ns_;
  WorktreeStatus& out_;
  std::uint64_t dev_;
  std::uint64_t* settled_;
  std::vector<Frame> stack_;
  std::vector<size_t> needs_content_;
};

enum class Content { kSame, kDiffers, kUnknown };

// The first index position at or after `from` whose top-level name differs from the entry
// before it (so no directory is split between two walks); `n` when there is none.
size_t top_level_boundary(const IndexEntries& index, size_t from, size_t n) {
  if (from == 0 || from >= n) {
    return from >= n ? n : 0;
  }
  const auto top = [&](size_t i) {
    const std::string_view p = index.at(i)->path;
    return p.substr(0, p.find('/'));
  };
  const std::string_view before = top(from - 1);
  while (from < n && top(from) == before) {
    ++from;
  }
  return from;
}

// The worktree bytes of entry `e` against what checkout writes for it (built-in filters only:
// crlf and ident; libgit2 runs no configured driver), so a line-ending-only change is a change.
// The path is reopened component by component without following links.
Content content_matches(git_repository* repo, int root_fd, const git_index_entry* e) {
  std::string_view path = e->path;
  util::UniqueFd dir(::dup(root_fd));
  for (auto slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/')) {
    const std::string part(path.substr(0, slash));
    dir.reset(::openat(dir.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!dir.valid()) {
      return Content::kDiffers;
    }
    path.remove_prefix(slash + 1);
  }
  const std::string name(path);
  struct stat st {};
  if (::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    return Content::kDiffers;
  }
  git_blob* raw = nullptr;
  if (git_blob_lookup(&raw, repo, &e->id) != 0) {
    return Content::kUnknown;
  }
  BlobPtr blob(raw);
  if ((e->mode & 0170000) == 0120000) {
    const auto size = static_cast<size_t>(git_blob_rawsize(blob.get()));
    std::string target(size + 1, '\0');
    const ssize_t n = ::readlinkat(dir.get(), name.c_str(), target.data(), target.size());
    const bool same = n >= 0 && static_cast<size_t>(n) == size &&
                      std::memcmp(target.data(), git_blob_rawcontent(blob.get()), size) == 0;
    return same ? Content::kSame : Content::kDiffers;
  }
  if (!S_ISREG(st.st_mode)) {
    return Content::kDiffers;
  }
  git_blob_filter_options opts{};
  git_blob_filter_options_init(&opts, GIT_BLOB_FILTER_OPTIONS_VERSION);
  opts.flags |= GIT_BLOB_FILTER_NO_SYSTEM_ATTRIBUTES;
  // The default flag makes a binary blob filter to nothing; checkout instead lets each filter
  // judge (crlf leaves binary content alone unless `text` is set), so the expected bytes are
  // those checkout would write.
  opts.flags &= ~static_cast<std::uint32_t>(GIT_BLOB_FILTER_CHECK_FOR_BINARY);
  GitBuf expected;
  if (git_blob_filter(expected.get(), blob.get(), e->path, &opts) != 0) {
    return Content::kUnknown;
  }
  const std::string_view want = expected.view();
  if (static_cast<size_t>(st.st_size) != want.size()) {
    return Content::kDiffers;
  }
  util::UniqueFd fd(
      ::openat(dir.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) {
    return Content::kDiffers;
  }
  std::array<char, 65536> buf{};
  size_t off = 0;
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return Content::kDiffers;
    }
    if (n == 0) {
      break;
    }
    const auto len = static_cast<size_t>(n);
    if (off + len > want.size() || std::memcmp(buf.data(), want.data() + off, len) != 0) {
      return Content::kDiffers;
    }
    off += len;
  }
  return off == want.size() ? Content::kSame : Content::kDiffers;
}

}  // namespace

util::Result<WorktreeStatus> worktree_status(git_repository* repo, const IndexEntries& index,
                                             const std::string& worktree,
                                             std::int64_t content_check_after_ns) {
  WorktreeStatus out;
  struct stat ist {};
  const std::string index_path = git_dir_of(worktree) + "/index";
  // Without an index file every entry counts as racy: all contents are compared.
  const std::int64_t index_mtime = ::lstat(index_path.c_str(), &ist) == 0 ? to_ns(ist.st_mtim) : 0;

  util::UniqueFd root(::open(worktree.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  struct stat root_st {};
  if (!root.valid() || ::fstat(root.get(), &root_st) != 0) {
    return util::refusal(std::string(kRuleWorktreeUnreadable),
                         "cannot open '" + worktree + "': " + std::strerror(errno));
  }
  // One walk per core (at least two) over slices of the index split where the top-level name
  // changes, beside the HEAD comparison. The walks make syscalls and read the index array only
  // (no libgit2 call), so they run beside the HEAD comparison, which is all libgit2 object reads.
  const size_t n = index.size();
  out.dev = root_st.st_dev;
  out.settled_inos.assign(n, 0);
  const size_t walks = std::clamp<size_t>(std::thread::hardware_concurrency(), 2, kMaxWalks);
  std::vector<size_t> bounds{0};
  for (size_t k = 1; k < walks; ++k) {
    bounds.push_back(std::max(bounds.back(), top_level_boundary(index, n * k / walks, n)));
  }
  bounds.push_back(n);
  std::vector<WorktreeStatus> parts(walks);
  std::vector<WorkdirCompare> cmps;
  cmps.reserve(walks);
  for (size_t k = 0; k < walks; ++k) {
    cmps.emplace_back(index, content_check_after_ns, index_mtime, parts[k], out.dev,
                      out.settled_inos.data());
  }
  std::vector<size_t> root_counts(walks, 0);
  std::vector<util::Status> walk_status(walks, util::ok_status());
  std::vector<std::thread> walkers;
  for (size_t k = 1; k < walks; ++k) {
    walkers.emplace_back([&, k] {
      walk_status[k] = cmps[k].run(root.get(), bounds[k], bounds[k + 1], root_counts[k]);
    });
  }
  walk_status[0] = cmps[0].run(root.get(), bounds[0], bounds[1], root_counts[0]);
  const util::Status head_status = HeadIndexCompare(index, out.changed).run(repo);
  for (auto& t : walkers) {
    t.join();
  }
  if (!head_status) {
    return head_status.error();
  }
  for (const auto& st : walk_status) {
    if (!st) {
      return st.error();
    }
  }
  WorktreeStatus walked;
  WorkdirCompare root_cmp(index, content_check_after_ns, index_mtime, walked, out.dev, nullptr);
  size_t root_expected = 0;
  for (const size_t c : root_counts) {
    root_expected += c;
  }
  if (auto st = root_cmp.check_root(root.get(), root_expected, n); !st) {
    return st.error();
  }
  std::vector<size_t> needs_content;
  for (size_t k = 0; k < walks; ++k) {
    walked.changed.insert(walked.changed.end(), parts[k].changed.begin(), parts[k].changed.end());
    walked.created.insert(walked.created.end(), parts[k].created.begin(), parts[k].created.end());
    needs_content.insert(needs_content.end(), cmps[k].needs_content().begin(),
                         cmps[k].needs_content().end());
  }
  out.changed.insert(out.changed.end(), walked.changed.begin(), walked.changed.end());
  out.created = std::move(walked.created);
  if (!needs_content.empty()) {
    for (const size_t pos : needs_content) {
      const git_index_entry* e = index.at(pos);
      switch (content_matches(repo, root.get(), e)) {
        case Content::kSame:
          break;
        case Content::kDiffers:
          out.changed.push_back({e->path, "modified"});
          break;
        case Content::kUnknown:
          out.changed.push_back(
              {e->path,
               "not comparable: " + last_error(kRuleCleanClone, "checkout bytes").message});
          break;
      }
    }
  }
  return out;
}

}  // namespace reviewer::git::detail

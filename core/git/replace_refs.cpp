#include "core/git/replace_refs.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "core/git/repository.h"
#include "core/git/rules.h"
#include "core/util/unique_fd.h"

namespace reviewer::git::detail {
namespace {

// Deeper directories are refused as one entry instead of being descended.
constexpr int kMaxDepth = 64;
constexpr size_t kMaxNamed = 20;
constexpr const char* kBase = "refs/replace";

// Ref name -> the file that holds it.
using Found = std::map<std::string, std::string>;

struct DirCloser {
  void operator()(DIR* d) const { ::closedir(d); }
};
using DirPtr = std::unique_ptr<DIR, DirCloser>;

// Records every entry under `fd` that is not a real directory. libgit2 1.5 silently skips a loose
// ref it cannot parse or resolve and git 2.39 skips some symlinks, but the git a build runs may
// read them otherwise, so the name alone counts.
void walk_loose(util::UniqueFd fd, const std::string& name, const std::string& path, int depth,
                Found& found) {
  DirPtr dir(::fdopendir(fd.get()));
  if (dir == nullptr) {
    found[name] = path;
    return;
  }
  const int dir_fd = fd.release();
  std::vector<std::string> children;
  while (const dirent* e = ::readdir(dir.get())) {
    const std::string child = e->d_name;
    if (child != "." && child != "..") {
      children.push_back(child);
    }
  }
  for (const std::string& child : children) {
    const std::string child_name = name + "/" + child;
    const std::string child_path = path + "/" + child;
    struct stat st {};
    if (::fstatat(dir_fd, child.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) &&
        depth < kMaxDepth) {
      util::UniqueFd sub = util::open_directory(dir_fd, child.c_str());
      if (sub.valid()) {
        walk_loose(std::move(sub), child_name, child_path, depth + 1, found);
        continue;
      }
    }
    found[child_name] = child_path;
  }
}

// Loose entries; `elsewhere` is where refs libgit2 lists beyond them live: `packed-refs`, unless
// `refs` itself is not a real directory (refused as symlinked-directory when it links to one).
Found loose_entries(const std::string& git_dir, std::string& elsewhere, report::Refusals& out) {
  Found found;
  util::UniqueFd git_fd = util::open_directory(AT_FDCWD, git_dir.c_str());
  util::UniqueFd refs_fd =
      git_fd.valid() ? util::open_directory(git_fd.get(), "refs") : util::UniqueFd();
  if (!refs_fd.valid()) {
    elsewhere = git_dir + "/refs";
    return found;
  }
  elsewhere = git_dir + "/packed-refs";
  const std::string path = git_dir + "/" + kBase;
  util::UniqueFd replace_fd = util::open_directory(refs_fd.get(), "replace");
  if (replace_fd.valid()) {
    walk_loose(std::move(replace_fd), kBase, path, 0, found);
  } else if (errno == ELOOP || errno == ENOTDIR) {
    found[kBase] = path;
  } else if (errno != ENOENT) {
    out.push_back(
        {std::string(kRuleHistoryShape),
         "'" + path + "' cannot be inspected without following links: " + std::strerror(errno),
         util::SourceLocation{path, 0, 0}});
  }
  return found;
}

bool under_loose_entry(const std::string& name, const Found& loose) {
  for (size_t slash = name.rfind('/'); slash != std::string::npos && slash > 0;
       slash = name.rfind('/', slash - 1)) {
    if (loose.contains(name.substr(0, slash))) {
      return true;
    }
  }
  return false;
}

}  // namespace

util::Status check_replace_refs(git_repository* repo, const std::string& worktree) {
  report::Refusals out;
  const std::string rule(kRuleHistoryShape);
  const std::string git_dir = git_dir_of(worktree);
  std::string elsewhere;
  const Found loose = loose_entries(git_dir, elsewhere, out);
  Found found = loose;

  git_reference_iterator* it_raw = nullptr;
  if (git_reference_iterator_glob_new(&it_raw, repo, "refs/replace/*") != 0) {
    const util::Refusal e = last_error(kRuleHistoryShape, "cannot list replace refs");
    out.push_back({rule, e.message, util::SourceLocation{git_dir, 0, 0}});
    return util::status_of(std::move(out));
  }
  ReferenceIteratorPtr it(it_raw);
  const char* name = nullptr;
  int rc = 0;
  while ((rc = git_reference_next_name(&name, it.get())) == 0) {
    if (!loose.contains(name) && !under_loose_entry(name, loose)) {
      found.emplace(name, elsewhere);
    }
  }
  if (rc != GIT_ITEROVER) {
    const util::Refusal e = last_error(kRuleHistoryShape, "cannot list replace refs");
    out.push_back({rule, e.message, util::SourceLocation{git_dir, 0, 0}});
  }

  size_t named = 0;
  for (const auto& [ref, file] : found) {
    if (named++ == kMaxNamed) {
      out.push_back({rule,
                     std::to_string(found.size() - kMaxNamed) +
                         " more replace refs; a clone has no refs under refs/replace/",
                     util::SourceLocation{git_dir, 0, 0}});
      break;
    }
    const std::string message =
        ref == kBase ? "'" + file + "' is not a real directory; a clone has no replace refs"
                     : "replace ref '" + ref +
                           "' makes git read another object in place of one the clone "
                           "fetched; a clone has no refs under refs/replace/";
    out.push_back({rule, message, util::SourceLocation{file, 0, 0}});
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::git::detail

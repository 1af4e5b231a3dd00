// remove_created_paths (declared in guards.h): deletes what earlier jobs left in the worktree.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <string_view>

#include "core/git/git_dir_pin.h"
#include "core/git/guards.h"
#include "core/git/redirects.h"
#include "core/git/repository.h"
#include "core/git/rules.h"
#include "core/git/worktree_status.h"
#include "core/util/tree_removal.h"
#include "core/util/unique_fd.h"

namespace reviewer::git {
namespace {

constexpr std::string_view kRuleCleanup = kRuleCleanupFailed;

util::Refusal cleanup_error(const std::string& path, const std::string& what) {
  return util::refusal(std::string(kRuleCleanup),
                       "cannot remove '" + path + "': " + what + ": " + std::strerror(errno));
}

// Removes worktree-relative `rel` (a trailing '/' marks a directory), walking its parents
// without following links.
util::Status remove_one(int root_fd, std::string rel) {
  if (!rel.empty() && rel.back() == '/') {
    rel.pop_back();
  }
  util::UniqueFd parent(::dup(root_fd));
  size_t start = 0;
  for (size_t slash = rel.find('/'); slash != std::string::npos; slash = rel.find('/', start)) {
    const std::string part = rel.substr(start, slash - start);
    util::UniqueFd next = util::open_directory(parent.get(), part.c_str());
    if (!next.valid()) {
      return cleanup_error(rel, "open parent '" + part + "'");
    }
    parent = std::move(next);
    start = slash + 1;
  }
  return util::remove_entry(parent.get(), rel.substr(start), rel);
}

}  // namespace

util::Status remove_created_paths(const std::string& worktree) {
  // libgit2 must not open a repository that another one's files stand in for, nor one where it
  // would block on a FIFO; the pre-job checks then name what was planted.
  if (auto redirects = check_redirects(worktree); !redirects) {
    return redirects.error();
  }
  if (const std::string special = detail::special_file(worktree); !special.empty()) {
    return util::refusal(std::string(kRuleGitDirChanged),
                         "'" + special +
                             "' is not a regular file; a job changed the clone's git "
                             "directory, and on GitHub the next job gets a fresh clone",
                         util::SourceLocation{special});
  }
  auto repo = detail::open_worktree(worktree, "");
  if (!repo) {
    return repo.error();
  }
  auto index = detail::IndexEntries::read(repo->get(), detail::git_dir_of(worktree), kRuleCleanup);
  if (!index) {
    return index.error();
  }
  // Contents are never compared here (only existence matters), hence the far-future pin.
  auto status = detail::worktree_status(repo->get(), *index, worktree,
                                        std::numeric_limits<std::int64_t>::max());
  if (!status) {
    return status.error();
  }
  util::UniqueFd root = util::open_directory(AT_FDCWD, worktree.c_str());
  if (!root.valid()) {
    return cleanup_error(worktree, "open");
  }
  for (const auto& rel : status->created) {
    if (auto s = remove_one(root.get(), rel); !s) {
      return s;
    }
  }
  return util::ok_status();
}

}  // namespace reviewer::git

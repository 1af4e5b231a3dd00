#include "core/git/history.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <set>
#include <vector>

#include "core/git/replace_refs.h"
#include "core/git/repository.h"
#include "core/git/rules.h"
#include "core/util/file_read.h"
#include "core/util/unique_fd.h"

namespace reviewer::git::detail {
namespace {

constexpr size_t kMaxShallowBytes = 16 * 1024 * 1024;

struct OidLess {
  bool operator()(const git_oid& a, const git_oid& b) const { return git_oid_cmp(&a, &b) < 0; }
};
using OidSet = std::set<git_oid, OidLess>;

util::Result<OidSet> read_shallow_roots(const std::string& worktree) {
  OidSet roots;
  const std::string path = git_dir_of(worktree) + "/shallow";
  auto read = util::read_regular_file(AT_FDCWD, path, {kMaxShallowBytes});
  if (!read) {
    if (util::file_fault(read.error()) == util::FileFault::kMissing) {
      return roots;
    }
    if (util::file_fault(read.error()) == util::FileFault::kTooLarge) {
      return util::refusal(std::string(kRuleHistoryShape), "'" + path + "' is too large");
    }
    // A link, a FIFO or an unreadable file: git would read something else, or nothing.
    return util::refusal(std::string(kRuleHistoryShape), "cannot read '" + path + "'");
  }
  const std::string& text = *read;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      end = text.size();
    }
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) {
      continue;
    }
    git_oid oid{};
    if (line.size() != GIT_OID_HEXSZ || git_oid_fromstr(&oid, line.c_str()) != 0) {
      return util::refusal(std::string(kRuleHistoryShape),
                           "'" + path + "' holds a line that is not an object id");
    }
    roots.insert(oid);
  }
  return roots;
}

// git still honours info/grafts (libgit2 1.5 has no grafts at all), so a build running git would
// see other parents than the walk below counts. Any entry counts, a symlink too. An `info` that
// is absent, a file or a symlink gives git no grafts through a real directory; a symlink to a
// directory is refused by the worktree shape scan.
util::Status check_grafts(const std::string& worktree) {
  const std::string git_dir = git_dir_of(worktree);
  const std::string path = git_dir + "/info/grafts";
  const auto refusal = [&](const std::string& what) {
    return report::Refusal{std::string(kRuleHistoryShape), "'" + path + "' " + what,
                           util::SourceLocation{path, 0, 0}};
  };
  util::UniqueFd git_fd = util::open_directory(AT_FDCWD, git_dir.c_str());
  util::UniqueFd info_fd =
      git_fd.valid() ? util::open_directory(git_fd.get(), "info") : util::UniqueFd();
  if (!info_fd.valid()) {
    if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP) {
      return util::ok_status();
    }
    return refusal(std::string("cannot be inspected without following links: ") +
                   std::strerror(errno));
  }
  struct stat st {};
  if (::fstatat(info_fd.get(), "grafts", &st, AT_SYMLINK_NOFOLLOW) == 0) {
    return refusal("rewrites the parents git sees; a clone has no grafts file");
  }
  if (errno != ENOENT) {
    return refusal(std::string("cannot be inspected without following links: ") +
                   std::strerror(errno));
  }
  return util::ok_status();
}

std::string plural(std::int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

util::Result<HistoryShape> read_history_shape(git_repository* repo, const std::string& worktree,
                                              std::int64_t max_commits) {
  HistoryShape shape;
  shape.shallow = git_repository_is_shallow(repo) == 1;
  auto roots = read_shallow_roots(worktree);
  if (!roots) {
    return roots.error();
  }

  git_object* head = nullptr;
  if (git_revparse_single(&head, repo, "HEAD^{commit}") != 0) {
    return last_error(kRuleHistoryShape, "cannot resolve HEAD to a commit");
  }
  git_oid start = *git_object_id(head);
  git_object_free(head);

  OidSet visited;
  std::vector<git_oid> stack{start};
  while (!stack.empty() && shape.commit_count < max_commits) {
    const git_oid oid = stack.back();
    stack.pop_back();
    if (!visited.insert(oid).second) {
      continue;
    }
    git_commit* raw = nullptr;
    if (git_commit_lookup(&raw, repo, &oid) != 0) {
      return last_error(kRuleHistoryShape, "a commit reachable from HEAD is missing");
    }
    CommitPtr commit(raw);
    ++shape.commit_count;
    if (roots->contains(oid)) {
      continue;
    }
    const unsigned n = git_commit_parentcount(commit.get());
    for (unsigned i = 0; i < n; ++i) {
      stack.push_back(*git_commit_parent_id(commit.get(), i));
    }
  }

  git_reference_iterator* it_raw = nullptr;
  if (git_reference_iterator_glob_new(&it_raw, repo, "refs/tags/*") != 0) {
    return last_error(kRuleHistoryShape, "cannot list tags");
  }
  ReferenceIteratorPtr it(it_raw);
  const char* name = nullptr;
  int rc = 0;
  while ((rc = git_reference_next_name(&name, it.get())) == 0) {
    ++shape.tag_count;
  }
  if (rc != GIT_ITEROVER) {
    return last_error(kRuleHistoryShape, "cannot list tags");
  }
  return shape;
}

util::Status check_history_shape(git_repository* repo, const std::string& worktree,
                                 int fetch_depth) {
  report::Refusals out;
  const std::string rule(kRuleHistoryShape);
  const util::SourceLocation where{git_dir_of(worktree), 0, 0};
  util::append_refusals(out, check_grafts(worktree));
  // git applies replace refs in every walk and object read; libgit2 1.5 never does.
  util::append_refusals(out, check_replace_refs(repo, worktree));
  if (fetch_depth != 0 && fetch_depth != 1) {
    out.push_back({rule,
                   "fetch-depth " + std::to_string(fetch_depth) +
                       " cannot be checked; accepted: 1 (default) or 0",
                   where});
    return util::status_of(std::move(out));
  }
  // Depth 1 needs to know only whether there is a second commit.
  auto shape = read_history_shape(repo, worktree, fetch_depth == 1 ? 2 : 1);
  if (!shape) {
    out.push_back({rule, shape.error().message, where});
    return util::status_of(std::move(out));
  }
  if (fetch_depth == 1) {
    if (!shape->shallow) {
      out.push_back({rule,
                     "the history is full, not shallow; fetch-depth 1 wants a shallow "
                     "clone of one commit",
                     where});
    } else if (shape->commit_count != 1) {
      out.push_back({rule,
                     "HEAD reaches more than one commit (a deepened clone); fetch-depth 1 "
                     "wants exactly one",
                     where});
    }
    if (shape->tag_count != 0) {
      out.push_back({rule,
                     "the repository holds " + plural(shape->tag_count, "tag", "tags") +
                         "; fetch-depth 1 fetches none",
                     where});
    }
  } else if (shape->shallow) {
    out.push_back({rule, "the history is shallow; fetch-depth 0 wants the full history", where});
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::git::detail

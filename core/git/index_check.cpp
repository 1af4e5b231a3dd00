#include "core/git/index_check.h"

#include "core/git/rules.h"

namespace reviewer::git::detail {

util::Status check_index_flags(const IndexEntries& index) {
  report::Refusals out;
  const size_t n = index.size();
  for (size_t i = 0; i < n; ++i) {
    const git_index_entry* e = index.at(i);
    if (e == nullptr) {
      continue;
    }
    const std::string path = e->path;
    if ((e->flags & GIT_INDEX_ENTRY_VALID) != 0) {
      out.push_back({std::string(kRuleIndexFlags),
                     "'" + path +
                         "' carries the assume-unchanged bit, so git status would not look at "
                         "it; a clone sets no index bits",
                     util::SourceLocation{path, 0, 0}});
    }
    if ((e->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) != 0) {
      out.push_back({std::string(kRuleIndexFlags),
                     "'" + path +
                         "' carries the skip-worktree bit, so git status would not look at it; "
                         "a clone sets no index bits",
                     util::SourceLocation{path, 0, 0}});
    }
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::git::detail

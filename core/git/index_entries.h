#pragma once

// Internal to core/git (takes libgit2 types).

#include <string>
#include <string_view>
#include <vector>

#include "core/git/git_handles.h"
#include "core/git/index_file.h"
#include "core/util/result.h"

namespace reviewer::git::detail {

// A repository's index entries, in the order and with the values libgit2's
// `git_repository_index` gives them. The file is read by parse_index_file when it can vouch
// for the result, and by libgit2 otherwise, so libgit2 still decides every file it refuses.
class IndexEntries {
 public:
  // `git_dir` is `repo`'s git directory. A refusal has libgit2's words, under `rule`.
  static util::Result<IndexEntries> read(git_repository* repo, const std::string& git_dir,
                                         std::string_view rule);

  size_t size() const { return size_; }
  const git_index_entry* at(size_t i) const { return entries_ + i; }
  // For tests and benchmarks: whether libgit2 was asked.
  bool read_by_libgit2() const { return libgit2_ != nullptr; }

 private:
  ParsedIndex parsed_;
  IndexPtr libgit2_;
  std::vector<git_index_entry> copied_;  // libgit2's entries, which it keeps by pointer
  const git_index_entry* entries_ = nullptr;
  size_t size_ = 0;
};

}  // namespace reviewer::git::detail

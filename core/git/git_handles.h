#pragma once

// Internal to core/git: the only header that includes libgit2. Never include it from outside
// core/git (STYLE.md: one module per third-party library).

#include <git2.h>

#include <memory>
#include <string>

#include "core/util/result.h"

namespace reviewer::git::detail {

template <class T, void (*Free)(T*)>
struct GitDeleter {
  void operator()(T* p) const { Free(p); }
};
template <class T, void (*Free)(T*)>
using GitPtr = std::unique_ptr<T, GitDeleter<T, Free>>;

using RepositoryPtr = GitPtr<git_repository, git_repository_free>;
using ConfigPtr = GitPtr<git_config, git_config_free>;
using ConfigIteratorPtr = GitPtr<git_config_iterator, git_config_iterator_free>;
using IndexPtr = GitPtr<git_index, git_index_free>;
using ReferencePtr = GitPtr<git_reference, git_reference_free>;
using ReferenceIteratorPtr = GitPtr<git_reference_iterator, git_reference_iterator_free>;
using CommitPtr = GitPtr<git_commit, git_commit_free>;
using TreePtr = GitPtr<git_tree, git_tree_free>;
using BlobPtr = GitPtr<git_blob, git_blob_free>;
using RemotePtr = GitPtr<git_remote, git_remote_free>;

// Owns a git_buf's memory.
class GitBuf {
 public:
  GitBuf() = default;
  GitBuf(const GitBuf&) = delete;
  GitBuf& operator=(const GitBuf&) = delete;
  ~GitBuf() { git_buf_dispose(&buf_); }
  git_buf* get() { return &buf_; }
  std::string_view view() const { return {buf_.ptr ? buf_.ptr : "", buf_.size}; }

 private:
  git_buf buf_ = GIT_BUF_INIT;
};

// Initialises libgit2 once per process (never shut down: other threads may still use it).
void ensure_libgit2();

// libgit2's last error text for `what`, as an Error with `code`.
util::Refusal last_error(std::string_view code, std::string_view what);

}  // namespace reviewer::git::detail

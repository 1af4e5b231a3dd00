#include "core/git/index_entries.h"

#include <fcntl.h>

#include <optional>

#include "core/util/file_read.h"

namespace reviewer::git::detail {
namespace {

// 1 GiB: about ten million entries. A larger index is read by libgit2, as before.
constexpr std::size_t kMaxIndexBytes = std::size_t{1} << 30;

// The index file's bytes, or nullopt for anything but a regular file read whole within the
// bound (libgit2 then gives its own answer for a missing index, a link, a FIFO or a larger file).
std::optional<std::string> index_bytes(const std::string& git_dir) {
  util::ReadLimits limits;
  limits.max_bytes = kMaxIndexBytes;
  auto bytes = util::read_regular_file(AT_FDCWD, git_dir + "/index", limits);
  if (!bytes) {
    return std::nullopt;
  }
  return std::move(bytes).value();
}

// core.ignorecase makes libgit2 re-sort the entries case-insensitively; that order is not
// modelled. nullopt when the configuration cannot say.
std::optional<bool> ignores_case(git_repository* repo) {
  git_config* raw = nullptr;
  if (git_repository_config(&raw, repo) != 0) {
    return std::nullopt;
  }
  ConfigPtr cfg(raw);
  int value = 0;
  const int rc = git_config_get_bool(&value, cfg.get(), "core.ignorecase");
  if (rc == GIT_ENOTFOUND) {
    git_error_clear();
    return false;
  }
  if (rc != 0) {
    return std::nullopt;
  }
  return value != 0;
}

}  // namespace

util::Result<IndexEntries> IndexEntries::read(git_repository* repo, const std::string& git_dir,
                                              std::string_view rule) {
  IndexEntries out;
  if (ignores_case(repo) == std::optional<bool>(false)) {
    if (auto bytes = index_bytes(git_dir)) {
      if (auto parsed = parse_index_file(std::move(*bytes))) {
        out.parsed_ = std::move(*parsed);
        out.entries_ = out.parsed_.entries.data();
        out.size_ = out.parsed_.entries.size();
        return out;
      }
    }
  }
  git_index* raw = nullptr;
  if (git_repository_index(&raw, repo) != 0) {
    return last_error(rule, "cannot read the index");
  }
  out.libgit2_.reset(raw);
  const size_t n = git_index_entrycount(raw);
  out.copied_.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    out.copied_.push_back(*git_index_get_byindex(raw, i));
  }
  out.entries_ = out.copied_.data();
  out.size_ = n;
  return out;
}

}  // namespace reviewer::git::detail

#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/util/result.h"

namespace reviewer::launch {

// The review build's artifacts: actions/upload-artifact and actions/download-artifact are
// emulated by moving files through this store (docs/fidelity.md, "Artifacts"). It lives in the
// launcher's memory for the whole build: it has no path, so no step of any job can plant, change
// or remove an artifact between its upload and its download (the launcher is non-dumpable, and
// the sweep between jobs never touches it). Everything it reads or writes in the worktree is
// hostile: paths are walked one component at a time from the worktree's descriptor without
// following any link, only regular files are read, and everything is bounded.
class ArtifactStore {
 public:
  struct Bounds {
    std::size_t max_walk_entries = 200000;  // per walk
    std::size_t max_depth = 64;
    std::size_t max_files = 50000;                     // all artifacts together
    std::uint64_t max_bytes = std::uint64_t{1} << 30;  // all artifacts together
  };
  enum class Kind { kFile = 0, kDirectory = 1, kLink = 2, kOther = 3 };  // REVIEWER_ENTRY_*
  struct Entry {
    std::string path;  // relative to the worktree
    Kind kind = Kind::kOther;
  };
  struct Source {
    std::string source;  // relative to the worktree
    std::string path;    // inside the artifact
  };

  ArtifactStore() = default;
  explicit ArtifactStore(Bounds bounds) : bounds_(bounds) {}

  // `dir` (relative; "" = the worktree) itself, then every entry below it, each directory's
  // entries in byte order, links reported and never entered. nullopt when `dir` does not exist.
  // Refusals: artifact-path-refused (not a plain relative path, or a link on the way),
  // artifact-too-large (more than max_walk_entries entries or max_depth levels).
  util::Result<std::optional<std::vector<Entry>>> walk(const std::string& workspace,
                                                       const std::string& dir) const;
  // Reads `files` from the worktree as they are now and keeps them as artifact `name`.
  // Refusals: artifact-name-not-unique (stored already), artifact-path-refused (a path inside the
  // artifact that is not plain, or given twice), artifact-link (a source that is or passes
  // through a link), artifact-source-refused (missing, not a regular file, unreadable),
  // artifact-too-large. Nothing is kept when any file fails.
  util::Status store(const std::string& workspace, const std::string& name,
                     const std::vector<Source>& files);
  // The stored names, in upload order.
  std::vector<std::string> names() const { return order_; }
  // Writes artifact `name` below `dir` (relative; "" = the worktree), making directories as
  // needed; an existing file is replaced (unlinked, then created anew, so a hard link there does
  // not carry the write elsewhere). False when no artifact has that name. Refusals:
  // artifact-path-refused, artifact-destination-refused (a link or a non-directory on the way,
  // a directory where a file goes, a write that fails).
  util::Result<bool> restore(const std::string& workspace, const std::string& name,
                             const std::string& dir) const;

 private:
  struct File {
    std::string path;
    std::string bytes;
  };
  Bounds bounds_;
  std::map<std::string, std::vector<File>> artifacts_;
  std::vector<std::string> order_;
  std::size_t files_ = 0;
  std::uint64_t bytes_ = 0;
};

}  // namespace reviewer::launch

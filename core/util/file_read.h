#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <string>

#include "core/util/result.h"
#include "core/util/unique_fd.h"

namespace reviewer::util {

// Error codes of the reads below, for callers to word their own refusals. The message is
// strerror's text for file-missing, file-symlink, file-open-failed and file-read-failed; "not a
// regular file" for file-not-regular; "is N bytes, over the M-byte bound" (or "is over the
// M-byte bound" when the file grew while read) for file-too-large.
inline constexpr const char* kFileMissing = "file-missing";
inline constexpr const char* kFileSymlink = "file-symlink";
inline constexpr const char* kFileOpenFailed = "file-open-failed";
inline constexpr const char* kFileNotRegular = "file-not-regular";
inline constexpr const char* kFileTooLarge = "file-too-large";
inline constexpr const char* kFileReadFailed = "file-read-failed";

// What went wrong with a read below, for callers to branch on: the fault the code a refusal of
// these reads carries (its rule) stands for, kNone for any other refusal.
enum class FileFault {
  kNone,
  kMissing,
  kSymlink,
  kOpenFailed,
  kNotRegular,
  kTooLarge,
  kReadFailed
};
FileFault file_fault(const Refusal& e);

struct ReadLimits {
  std::size_t max_bytes = 1 << 20;
  // Follow a symbolic link as the last component (git follows its includes); never by default.
  bool follow_link = false;
  // Return the first max_bytes bytes of a larger file instead of failing (for callers that
  // report the crossed bound themselves, or whose files a step writes).
  bool truncate = false;
};

// Opens the regular file `name` relative to `dir_fd` (AT_FDCWD for a path) read-only with
// O_CLOEXEC, O_NONBLOCK (a FIFO must not hang the open) and, unless `follow_link`, O_NOFOLLOW;
// `st` receives its fstat. Errors as above.
Result<UniqueFd> open_regular_file(int dir_fd, const std::string& name, bool follow_link,
                                   struct stat& st);

// Reads the regular file `fd` (whose fstat is `st`) from its current offset to the end, within
// `limits` (EINTR retried).
Result<std::string> read_open_file(int fd, const struct stat& st, const ReadLimits& limits);

// open_regular_file, then read_open_file: the one bounded, no-follow read of a regular file.
Result<std::string> read_regular_file(int dir_fd, const std::string& name,
                                      const ReadLimits& limits = {});

}  // namespace reviewer::util

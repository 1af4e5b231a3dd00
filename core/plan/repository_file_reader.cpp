#include "core/plan/repository_file_reader.h"

#include <reviewer/sdk/abi.h>

#include <algorithm>
#include <string_view>
#include <utility>

#include "core/util/file_read.h"
#include "core/util/sha256.h"
#include "core/util/text.h"

namespace reviewer::plan {
namespace {

using Outcome = plugins::RepositoryFileRead::Outcome;

// Why `path` is not plain, or "" when it is: RepositoryFiles reads plain paths only, and a '..'
// or an absolute path could lead a read out of the repository.
std::string not_plain(const std::string& path) {
  if (path.find('\0') != std::string::npos) {
    return "holds a NUL byte";
  }
  for (const auto& part : util::split_path(path)) {
    if (part.empty() || part == "." || part == "..") {
      return path.empty()            ? "is empty"
             : path.starts_with("/") ? "is absolute"
             : part.empty()          ? "has an empty component"
                                     : "has a " + util::quote(part) + " component";
    }
  }
  return "";
}

plugins::RepositoryFileReader::Answer unreadable(std::string why) {
  return {Outcome::kUnreadable, std::move(why), ""};
}

}  // namespace

plugins::RepositoryFileReader::Answer RepositoryFilesReader::read(const std::string& path,
                                                                  std::size_t max_bytes) const {
  if (const std::string why = not_plain(path); !why.empty()) {
    return unreadable("is not a plain path in the repository (it " + why +
                      "); name a file by a relative path without '.' or '..'");
  }
  const std::size_t bound = std::min<std::size_t>(max_bytes, REVIEWER_REPOSITORY_FILE_MAX_BYTES);
  // One byte over the bound tells a file at the bound from a larger one.
  auto text = files_.read(path, bound + 1);
  if (text) {
    if (text->size() > bound) {
      return unreadable("is over the " + std::to_string(bound) + "-byte bound");
    }
    std::string sha = util::sha256_hex(*text);
    return {Outcome::kRead, std::move(*text), std::move(sha)};
  }
  switch (util::file_fault(text.error())) {
    case util::FileFault::kMissing:
      return {Outcome::kMissing, "", ""};
    case util::FileFault::kSymlink:
      return unreadable("is reached through a symbolic link (" + text.error().message + ")");
    case util::FileFault::kNotRegular:
      return unreadable("is not a regular file");
    case util::FileFault::kTooLarge:
      return unreadable("is over the " + std::to_string(bound) + "-byte bound");
    default:
      return unreadable("cannot be read (" + text.error().message + ")");
  }
}

}  // namespace reviewer::plan

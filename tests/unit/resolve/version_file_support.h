#pragma once

#include <map>
#include <string>

#include "core/resolve/named_version_file.h"
#include "core/util/file_read.h"

namespace reviewer::resolve::testing {

// Marks a path of memory_files() that reads as a symbolic link, or as a directory.
inline constexpr const char* kLink = "\x01link";
inline constexpr const char* kDirectory = "\x01dir";

// The repository as a map path -> text, read as plan::MemoryFiles and WorktreeFiles read one: at
// most `max_bytes` bytes, util::kFile* errors.
inline RepositoryReader memory_files(std::map<std::string, std::string> files) {
  return [files = std::move(files)](const std::string& path, std::size_t max_bytes) {
    const auto it = files.find(path);
    if (it == files.end()) {
      return util::Result<std::string>(
          util::refusal(util::kFileMissing, "No such file or directory"));
    }
    if (it->second == kLink) {
      return util::Result<std::string>(
          util::refusal(util::kFileSymlink, "Too many levels of symbolic links"));
    }
    if (it->second == kDirectory) {
      return util::Result<std::string>(util::refusal(util::kFileNotRegular, "not a regular file"));
    }
    return util::Result<std::string>(it->second.substr(0, max_bytes));
  };
}

// "VERSION @location" for a version read, or "rule: message @location" for each refusal: the
// whole diagnostic, so a test asserts every word of it.
inline std::string summary(const util::Result<FileVersion>& r) {
  if (r) {
    return r->version + " @" + r->location.to_string();
  }
  std::string out;
  for (const auto& x : r.refusals()) {
    out += (out.empty() ? "" : "\n") + x.rule + ": " + x.message +
           (x.location ? " @" + x.location->to_string() : "");
  }
  return out;
}

}  // namespace reviewer::resolve::testing

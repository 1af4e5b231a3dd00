// The repository as a map path -> text, read as the host's read_repository_file reads one
// (core/plan/repository_file_reader.h, in the same words), for the plugins' readers under test.
#pragma once

#include <reviewer/sdk/repository_file.hpp>

#include <map>
#include <string>

namespace plugin_readers::testing {

// Marks a path of memory_files() that reads as a symbolic link, or as a directory.
inline constexpr const char* kLink = "\x01link";
inline constexpr const char* kDirectory = "\x01dir";

inline reviewer::sdk::RepositoryReader memory_files(std::map<std::string, std::string> files) {
  using Status = reviewer::sdk::RepositoryFile::Status;
  return [files = std::move(files)](const std::string& path, std::size_t max_bytes) {
    const auto it = files.find(path);
    if (it == files.end()) {
      return reviewer::sdk::RepositoryFile{Status::kMissing, ""};
    }
    if (it->second == kLink) {
      return reviewer::sdk::RepositoryFile{
          Status::kRefused,
          "is reached through a symbolic link (Too many levels of symbolic links)"};
    }
    if (it->second == kDirectory) {
      return reviewer::sdk::RepositoryFile{Status::kRefused, "is not a regular file"};
    }
    if (it->second.size() > max_bytes) {
      return reviewer::sdk::RepositoryFile{
          Status::kRefused, "is over the " + std::to_string(max_bytes) + "-byte bound"};
    }
    return reviewer::sdk::RepositoryFile{Status::kRead, it->second};
  };
}

// "VERSION @location" for a version read, or "rule: message @location" for the refusal: the whole
// diagnostic, so a test asserts every word of it.
inline std::string summary(const reviewer::sdk::FileResult<reviewer::sdk::FileVersion>& r) {
  if (r) {
    return r->version + " @" + r->where.to_string();
  }
  return r.refusal().rule + ": " + r.refusal().message + " @" + r.refusal().where.to_string();
}

}  // namespace plugin_readers::testing

// What a setup action is asked to install: its version input as written, or what its version
// file gives as the action reads it (the plugin's reader, over the host's repository files, SDK
// 1.11). Header-only.
#pragma once

#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/plugin.hpp>
#include <reviewer/sdk/repository_file.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace reviewer::sdk {

struct RequestedVersion {
  std::string spec;
  std::string source;  // for messages: "'node-version'" or "'node-version-file' '.nvmrc'"
  bool from_file = false;
  std::string file;  // where the version is written: the workflow, or the version file
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  Location where() const { return {file, line, column}; }
  std::string where_text() const {
    return file + (line == 0 ? "" : ":" + std::to_string(line) + ":" + std::to_string(column));
  }

  // The version input `name`, as written.
  static RequestedVersion from_input(const Entry& input, std::string_view name) {
    return {std::string(input.value),         "'" + std::string(name) + "'", false,
            std::string(input.location.file), input.location.line,           input.location.column};
  }
};

// What the version file `file` names gives (the input `file_input` of `action`, e.g.
// "actions/setup-node" and "node-version-file"), read by `read_file` (the action's own reader: a
// callable taking the NamedFile and a RepositoryReader, returning FileResult<FileVersion>) over
// the host's repository files. False after a refusal: the reader's (a missing, linked or
// malformed file), action-input-refused from a host older than 1.11 (write the version in
// `version_input` instead), or runtime-version-not-exact when the file gives no version
// (`without_version` says what the action does then and what to write).
template <class ReadFile>
bool read_requested_version(const PlanDecision& decision, const Entry& file,
                            std::string_view action, std::string_view file_input,
                            std::string_view version_input, std::string_view without_version,
                            const ReadFile& read_file, RequestedVersion& out) {
  const std::string source = "'" + std::string(file_input) + "' '" + printable(file.value) + "'";
  if (!decision.reads_repository_files()) {
    decision.refuse("action-input-refused",
                    std::string(action) + " " + source +
                        " needs a host that reads repository files (SDK 1.11); write the version "
                        "in '" +
                        std::string(version_input) + "' instead",
                    file.location);
    return false;
  }
  const Place input{std::string(file.location.file), file.location.line, file.location.column};
  FileResult<FileVersion> read =
      read_file(NamedFile{std::string(file_input), std::string(file.value), input},
                repository_reader(decision, file.location));
  if (!read) {
    decision.refuse(read.refusal().rule, read.refusal().message, read.refusal().where.location());
    return false;
  }
  if (read->version.empty()) {
    decision.refuse(
        "runtime-version-not-exact",
        std::string(action) + " " + source + " gives no version " + std::string(without_version),
        file.location);
    return false;
  }
  out = {std::move(read->version),    source,           true,
         std::move(read->where.file), read->where.line, read->where.column};
  return true;
}

}  // namespace reviewer::sdk

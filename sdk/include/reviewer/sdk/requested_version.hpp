// What a setup action is asked to install: its version input as written, or what its version
// file gives as the action reads it (the host reads the file, SDK 1.4). Header-only.
#pragma once

#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/plugin.hpp>

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

// Reads the version file `file` names (the input `file_input` of `action`, e.g.
// "actions/setup-node" and "node-version-file") by the host's `rules`
// (REVIEWER_VERSION_FILE_*). False after a refusal: the host's own (a missing, linked or malformed
// file), action-input-refused from a host older than 1.4 (write the version in `version_input`
// instead), or runtime-version-not-exact when the file gives no version (`without_version` says
// what the action does then and what to write).
inline bool read_requested_version(PlanDecision& decision, std::int32_t rules, const Entry& file,
                                   std::string_view action, std::string_view file_input,
                                   std::string_view version_input, std::string_view without_version,
                                   RequestedVersion& out) {
  const std::string source = "'" + std::string(file_input) + "' '" + printable(file.value) + "'";
  auto read = decision.read_version_file(rules, file.value, file.location);
  using Status = PlanDecision::FileVersion::Status;
  if (read.status == Status::kUnavailable) {
    decision.refuse("action-input-refused",
                    std::string(action) + " " + source +
                        " needs a host that reads version files (SDK 1.4); write the version in '" +
                        std::string(version_input) + "' instead",
                    file.location);
    return false;
  }
  if (read.status == Status::kRefused) {
    return false;  // the host refused the step and said why
  }
  if (read.version.empty()) {
    decision.refuse(
        "runtime-version-not-exact",
        std::string(action) + " " + source + " gives no version " + std::string(without_version),
        file.location);
    return false;
  }
  out = {std::move(read.version), source, true, std::move(read.file), read.line, read.column};
  return true;
}

}  // namespace reviewer::sdk

// The package.json pnpm/action-setup and pnpm/setup read `packageManager` from, reproduced over
// the repository's files (docs/resolver.md, "Version files named by a step").
#pragma once

#include <reviewer/sdk/repository_file.hpp>

#include <optional>
#include <string_view>

namespace pnpm_common {

// pnpm/action-setup's readTarget (src/install-pnpm/run.ts at v3.0.0 and v4.0.0) for
// `package_json_file`: `JSON.parse(readFileSync(path.join(GITHUB_WORKSPACE, input)))` and its
// `packageManager`; `file.path` joined as path.join does and the file read through `read`
// (reviewer/sdk/repository_file.hpp). Returns the `packageManager` string as written
// ("pnpm@9.15.9+sha512.…"), unchecked: the plugin applies the action's rules to it. "" when the
// field is absent or not a string (the action then treats it as missing), or when the file does
// not exist (v4.0.0 swallows ENOENT; v3.0.0 throws only when it needs the field, which the plugin
// decides).
// Refused: version-file-outside (a '..' that climbs out of the workspace), and
// invalid-declaration for a file the host may not read (a link, not a regular file, over its
// bound), and a file JSON.parse throws on (not JSON, a byte-order mark) or whose destructuring
// throws (`null`): the action fails the step.
reviewer::sdk::FileResult<reviewer::sdk::FileVersion> read_package_manager(
    const reviewer::sdk::NamedFile& file, const reviewer::sdk::RepositoryReader& read);

// read_package_manager over the host's files for the step input `input` (`path`, written at
// `where`; where the step leaves it out, the default and the step's `uses:`). nullopt after
// refusing the step: the reader's refusal, or action-input-refused from a host older than SDK
// 1.10, which reads no repository files (`who` names the action).
std::optional<reviewer::sdk::FileVersion> package_manager_of(
    const reviewer::sdk::PlanDecision& decision, std::string_view input, std::string_view path,
    const reviewer::sdk::Location& where, std::string_view who);

}  // namespace pnpm_common

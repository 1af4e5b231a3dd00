#pragma once

#include "core/resolve/named_version_file.h"

namespace reviewer::resolve {

// pnpm/action-setup's readTarget (src/install-pnpm/run.ts at v3.0.0 and v4.0.0) for
// `package_json_file`: `JSON.parse(readFileSync(path.join(GITHUB_WORKSPACE, input)))` and its
// `packageManager`. docs/resolver.md, "Version files named by a step".
// Returns the `packageManager` string as written ("pnpm@9.15.9+sha512.…"), unchecked: the plugin
// applies the action's rules to it. "" when the field is absent or not a string (the action then
// treats it as missing), or when the file does not exist (v4.0.0 swallows ENOENT; v3.0.0 throws
// only when it needs the field, which the plugin decides).
// Refused: version-file-outside (a '..' that climbs out of the workspace), and
// invalid-declaration for a link, a non-regular or oversized file, and a file JSON.parse throws on
// (not JSON, a byte-order mark) or whose destructuring throws (`null`): the action fails the step.
util::Result<FileVersion> read_pnpm_action_package_json(const NamedFile& file,
                                                        const RepositoryReader& read);

}  // namespace reviewer::resolve

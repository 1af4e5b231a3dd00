#pragma once

#include <string>
#include <vector>

#include "core/util/result.h"

namespace reviewer::launch {

// The runner's hashFiles(patterns...): the files under `workspace` matching any pattern and no
// `!` pattern (globs relative to the workspace: `*` and `?` within one path segment, `**` any
// number of segments), each hashed with SHA-256, and the SHA-256 of those digests in path order;
// "" when nothing matches. Links are not followed and count as no file. Errors
// (`expression-error`): more than kMaxFiles files walked, a file that cannot be read.
// Emptiness is exactly the runner's; the digest of several files may differ from the runner's,
// which takes them in directory order (docs/fidelity.md).
inline constexpr std::size_t kMaxHashFilesWalk = 500000;
util::Result<std::string> hash_files(const std::string& workspace,
                                     const std::vector<std::string>& patterns);

// One glob against a relative path, as above.
bool glob_match(std::string_view pattern, std::string_view path);

}  // namespace reviewer::launch

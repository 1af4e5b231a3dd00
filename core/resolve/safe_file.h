#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/util/result.h"
#include "core/util/text.h"
#include "core/util/unique_fd.h"

namespace reviewer::resolve {

// Opens `path` as a directory (O_DIRECTORY|O_CLOEXEC) to read declaration files relative to it.
// Error code "invalid-declaration".
util::Result<util::UniqueFd> open_worktree(const std::string& path);

// Reads the regular file `name` (one path component, no '/') directly inside the directory
// `dir`: opened with openat(O_NOFOLLOW|O_CLOEXEC|O_NONBLOCK), so a symlink is never followed,
// whatever it points at. nullopt when the file does not exist. Errors (code
// "invalid-declaration", location = `name`): a symlink, not a regular file, larger than
// `max_bytes`, or unreadable.
util::Result<std::optional<std::string>> read_worktree_file(int dir, const std::string& name,
                                                            std::size_t max_bytes);

// Reads a trusted file by path (the matrix, the runtime catalogue), bounded by `max_bytes`;
// error code `code`. Unless `follow_link`, a symlink as the last component is refused, not
// followed.
util::Result<std::string> read_bounded_file(const std::string& path, std::size_t max_bytes,
                                            const std::string& code, bool follow_link = true);

// `"value"` for messages: util::quote with the double quotes of JSON and npm.
inline std::string quote(std::string_view value) { return util::quote(value, '"'); }

}  // namespace reviewer::resolve

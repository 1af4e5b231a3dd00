#pragma once

#include <string>
#include <string_view>

#include "core/util/result.h"

namespace reviewer::util {

// Lower-case hex SHA-256 of `bytes`.
std::string sha256_hex(std::string_view bytes);

// Lower-case hex SHA-256 of the regular file at `path`, read through an fd opened with
// O_NOFOLLOW (a symlink is an error, never followed).
Result<std::string> sha256_file(const std::string& path);

// Lower-case hex SHA-256 of everything readable from `fd`, read with pread from offset 0 (the
// descriptor's own offset is left alone).
Result<std::string> sha256_fd(int fd, const std::string& name_for_errors);

}  // namespace reviewer::util

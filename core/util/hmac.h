#pragma once

#include <string>
#include <string_view>

namespace reviewer::util {

// Lower-case hex HMAC-SHA256 of `message` keyed by `key`.
std::string hmac_sha256_hex(std::string_view key, std::string_view message);

// Whether `a` and `b` are equal, in time that depends only on their lengths (for comparing a
// MAC a forger may be guessing byte by byte).
bool equal_in_constant_time(std::string_view a, std::string_view b);

}  // namespace reviewer::util

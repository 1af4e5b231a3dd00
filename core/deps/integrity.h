#pragma once

#include <string>
#include <string_view>

#include "core/util/result.h"

namespace reviewer::deps {

// The lower-case hex SHA-512 a Subresource Integrity string pins (`sha512-<base64>`, possibly
// among other space-separated hashes, as npm writes them). Refusal
// `dependency-integrity-missing` naming `what` when there is no well-formed sha512 hash: a
// missing integrity, or only sha1 (npm 4 and older tarballs), cannot pin the bytes.
util::Result<std::string> sha512_of_integrity(std::string_view integrity, const std::string& what);

// Lower-case hex SHA-512 of everything in the regular file at `path`, opened with O_NOFOLLOW;
// error code `io-error`.
util::Result<std::string> sha512_file(const std::string& path);

// Lower-case hex digest of the regular file at `path` (O_NOFOLLOW) by `algorithm`, one of sha1,
// sha224, sha256, sha384, sha512 (the hashes corepack's packageManager `+ALGO.HEX` names); error
// code `io-error`, or `invalid-version` for another algorithm.
util::Result<std::string> digest_file(const std::string& path, std::string_view algorithm);

// The base64 SRI form of a hex SHA-512, "sha512-...", for messages that compare with a lock.
std::string integrity_of_hex(const std::string& hex);

}  // namespace reviewer::deps

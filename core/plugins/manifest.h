#pragma once

#include <map>
#include <string>

#include "core/util/result.h"

namespace reviewer::plugins {

inline constexpr const char* kManifestName = "MANIFEST.sha256";

// The install manifest: file name -> expected lower-case hex SHA-256, one "<hex>  <name>" line
// each (sha256sum's format), written by the build and by `cmake --install`.
using Manifest = std::map<std::string, std::string>;

// True for 64 lower-case hex digits, how the manifest writes a SHA-256.
bool is_sha256_hex(const std::string& s);

// Parses manifest text; malformed lines are an error naming the line.
util::Result<Manifest> parse_manifest(const std::string& text, const std::string& path);

// Reads `dir`/MANIFEST.sha256: regular file, not a symlink, writable by nobody but root or us.
util::Result<Manifest> read_manifest(const std::string& dir);

}  // namespace reviewer::plugins

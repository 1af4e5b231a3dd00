#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::launch {

struct RuntimeBinary {
  std::string path;     // absolute, fixed at image build
  std::string version;  // exact
};

// What this image is: its matrix name and the runtimes it carries, written when the image (or
// the run model's install) is built, read from the trusted data directory.
struct ImageInfo {
  std::string name;
  std::map<std::string, RuntimeBinary> runtimes;  // "node", "bun"
  std::vector<std::string> path;                  // runtime bin dirs for steps' PATH
};

util::Result<ImageInfo> read_image_info(const std::string& file);

// Runs every runtime at its fixed path with `--version` (PATH: the image's runtime directories,
// then /usr/bin:/bin) and refuses runtime-mismatch when it does not print the version the image
// claims (an impostor or a broken image). npm is not run: its version is read where `npm
// --version` reads it, its package.json (no link followed at the file itself).
util::Status verify_runtimes(const ImageInfo& image);

}  // namespace reviewer::launch

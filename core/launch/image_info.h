#pragma once

#include <future>
#include <map>
#include <optional>
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

// verify_runtimes, started at once on a thread of its own. The answers are mostly the runtimes'
// own start-up (node's few milliseconds), which the launcher's planning need not wait for; it
// waits only before anything of the build runs and before any verdict, and gives a mismatch
// first, as if the runtimes had been checked before everything else. Joined on destruction.
class PendingRuntimeCheck {
 public:
  explicit PendingRuntimeCheck(const ImageInfo& image);
  // The first call waits for the answers; every call returns the same status.
  const util::Status& wait();

 private:
  std::future<util::Status> pending_;
  std::optional<util::Status> done_;
};

}  // namespace reviewer::launch

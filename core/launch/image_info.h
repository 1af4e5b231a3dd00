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

// `image` without the runtime `name` (bun, which a build reaches only through setup-bun).
ImageInfo without_runtime(const ImageInfo& image, const std::string& name);

// `image` with only the runtime `name`, if it carries it.
ImageInfo only_runtime(const ImageInfo& image, const std::string& name);

// verify_runtimes, its runtimes started at once in the constructing thread and their answers
// read on a thread of their own. The answers are mostly the runtimes' own start-up (node's few
// milliseconds), which the launcher's planning need not wait for; it waits only before anything of
// the build runs and before any verdict, and gives a mismatch first, as if the runtimes had been
// checked before everything else. Joined on destruction.
class PendingRuntimeCheck {
 public:
  explicit PendingRuntimeCheck(const ImageInfo& image);
  // Starts checking `more` too; the next wait() waits for it as well.
  void also(const ImageInfo& more);
  // Waits for every answer asked so far; the mismatches of all, in the order asked.
  const util::Status& wait();

 private:
  std::vector<std::future<util::Status>> pending_;
  report::Refusals mismatches_;
  std::optional<util::Status> done_;
};

}  // namespace reviewer::launch

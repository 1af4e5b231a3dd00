#include "core/launch/image_checksums.h"

#include "core/util/sha256.h"

namespace reviewer::launch {

util::Status check_runtime_checksums(const ImageInfo& image, const resolve::RuntimeTable& matrix) {
  report::Refusals out;
  for (const auto& [runtime, binary] : image.runtimes) {
    const auto tool = matrix.runtimes.find(runtime);
    if (tool == matrix.runtimes.end() || !tool->second.contains(binary.version)) {
      out.push_back({"runtime-checksum",
                     runtime + " " + binary.version + " at " + binary.path +
                         " has no checksum in the trusted table",
                     std::nullopt});
      continue;
    }
    const std::string& want = tool->second.at(binary.version).sha256;
    auto got = util::sha256_file(binary.path);
    if (!got) {
      out.push_back({"runtime-checksum",
                     runtime + " " + binary.version + " at " + binary.path +
                         " cannot be checked: " + got.error().message,
                     std::nullopt});
    } else if (*got != want) {
      out.push_back({"runtime-checksum",
                     runtime + " " + binary.version + " at " + binary.path + " has SHA-256 " +
                         *got + ", the trusted table records " + want,
                     std::nullopt});
    }
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::launch

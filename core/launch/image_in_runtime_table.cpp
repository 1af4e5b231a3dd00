#include "core/launch/image_in_runtime_table.h"

namespace reviewer::launch {

util::Status check_image_against_runtime_table(const ImageInfo& image,
                                               const resolve::RuntimeTable& matrix) {
  const resolve::Image* entry = nullptr;
  std::string names;
  for (const auto& candidate : matrix.images) {
    names += (names.empty() ? "" : ", ") + candidate.name;
    if (candidate.name == image.name) {
      entry = &candidate;
    }
  }
  if (entry == nullptr) {
    return util::refusal(
        "image-info-invalid",
        "image.json: '" + image.name + "' is not an image of the matrix (images: " + names + ")");
  }
  report::Refusals out;
  for (const auto& [runtime, version] : entry->runtimes) {
    auto declared = image.runtimes.find(runtime);
    if (declared == image.runtimes.end()) {
      out.push_back({"image-info-invalid",
                     "image.json declares no " + runtime + ", but matrix image " + entry->name +
                         " carries " + runtime + " " + version,
                     std::nullopt});
    } else if (declared->second.version != version) {
      out.push_back({"runtime-mismatch",
                     "image.json declares " + runtime + " " + declared->second.version +
                         ", but matrix image " + entry->name + " carries " + runtime + " " +
                         version,
                     std::nullopt});
    }
  }
  for (const auto& [runtime, binary] : image.runtimes) {
    if (entry->runtimes.count(runtime) == 0) {
      out.push_back({"image-info-invalid",
                     "image.json declares " + runtime + " " + binary.version +
                         ", which matrix image " + entry->name + " does not carry",
                     std::nullopt});
    }
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::launch

#include "core/launch/runtime_resolution.h"

#include "core/resolve/resolver.h"
#include "core/resolve/runtime_table.h"
#include "core/util/install_layout.h"

namespace reviewer::launch {

util::Result<resolve::RuntimeTable> load_trusted_matrix() {
  return resolve::load_runtime_table(util::data_directory() + "/runtime-matrix.json");
}

util::Status check_runtime_resolution(const std::string& worktree, const plan::Plan& plan,
                                      const ImageInfo& image, const resolve::RuntimeTable& matrix) {
  auto result = resolve::resolve(worktree, matrix, plan::resolver_pins(plan));
  if (!result) {
    return result.refusals();
  }
  const auto& resolution = *result;
  if (resolution.image != image.name) {
    return util::refusal("other-image", "the declarations select image " + resolution.image +
                                            ", but this sandbox runs " + image.name +
                                            "; the host must create the sandbox from " +
                                            resolution.image);
  }
  return util::ok_status();
}

}  // namespace reviewer::launch

#include "core/deps/lock_yaml.h"

#include "core/yaml/bounded_loader.h"

namespace reviewer::deps {

util::Result<yaml::Node> load_lock_yaml(std::string_view text, const std::string& file,
                                        const LockBounds& bounds, const std::string& tool) {
  yaml::Bounds yb;
  yb.max_bytes = bounds.max_bytes;
  yb.max_nodes = bounds.max_nodes;
  yb.max_depth = bounds.max_depth;
  yb.quoted_keys = true;
  auto doc = yaml::load(text, file, yb);
  if (!doc) {
    return util::refusal("dependency-lock-invalid", file + " is not YAML " + tool +
                                                        " writes: " + doc.error().rule + ": " +
                                                        doc.error().message);
  }
  if (!doc->is_mapping()) {
    return util::refusal("dependency-lock-invalid", file + " is not a YAML mapping");
  }
  return std::move(*doc);
}

}  // namespace reviewer::deps

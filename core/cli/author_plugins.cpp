#include "core/cli/author_plugins.h"

#include "core/util/install_layout.h"

namespace reviewer::cli {

util::Result<plugins::Registry> open_plugins(const std::vector<std::string>& author_dirs) {
  auto installed = plugins::Registry::open(util::plugin_directory());
  if (!installed) {
    return installed.refusals();
  }
  for (const auto& dir : author_dirs) {
    // Loaded whole: the author's directory usually has no index, and a fixture run uses them.
    auto authored = plugins::Registry::load(dir);
    if (!authored) {
      return authored.refusals();
    }
    if (auto added = installed->add(std::move(*authored)); !added) {
      return added.refusals();
    }
  }
  return installed;
}

}  // namespace reviewer::cli

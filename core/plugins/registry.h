#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/plugins/plugin_library.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::plugins {

// Action id -> the verified plugin that handles it.
class Registry {
 public:
  // Loads every plugin of `dir`. Any refused candidate, an unexpected file, or two plugins
  // claiming one action id (plugin-duplicate-action) refuses the whole install, since it is not
  // the one reviewed: every refusal is returned, and no registry.
  static util::Result<Registry> load(const std::string& dir);

  // The plugin claiming `action` ("run" for run steps), or nullptr.
  const PluginLibrary* find(const std::string& action) const;
  const Claim* claim(const std::string& action) const;
  const std::vector<PluginLibrary>& plugins() const { return plugins_; }

 private:
  std::vector<PluginLibrary> plugins_;
  std::map<std::string, std::pair<std::size_t, std::size_t>> by_action_;  // plugin, claim index
};

}  // namespace reviewer::plugins

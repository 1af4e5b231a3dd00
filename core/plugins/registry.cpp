#include "core/plugins/registry.h"

#include <sys/stat.h>

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "core/plugins/file_checks.h"

namespace reviewer::plugins {
namespace {

void trace(const std::string& path, const std::string& verdict) {
  if (plugin_trace_enabled()) {
    std::cerr << "reviewer: plugin candidate " << path << ": " << verdict << "\n";
  }
}

}  // namespace

util::Result<Registry> Registry::load(const std::string& dir) {
  Registry registry;
  report::Refusals refusals;
  auto refuse = [&](report::Refusal r) {
    trace(r.location ? r.location->file : dir, r.rule + ": " + r.message);
    refusals.push_back(std::move(r));
  };
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    refuse({"plugin-dir-missing", fmt::format("plugin directory '{}' does not exist", dir),
            util::SourceLocation{dir, 0, 0}});
    return refusals;
  }
  if (auto owned = check_ownership(st, dir, "plugin-permissions"); !owned) {
    refuse(owned.error());
    return refusals;
  }
  auto manifest = read_manifest(dir);
  if (!manifest) {
    refuse(manifest.error());
    return refusals;
  }
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& path : paths) {
    std::string file = std::filesystem::path(path).filename();
    if (file == kManifestName) {
      continue;
    }
    if (!file.ends_with(".so")) {
      refuse({"plugin-unexpected-file",
              fmt::format("'{}' in the plugin directory is not a plugin", file),
              util::SourceLocation{path, 0, 0}});
      continue;
    }
    auto lib = load_plugin(path, *manifest);
    if (!lib) {
      refuse(lib.error());
      continue;
    }
    std::size_t index = registry.plugins_.size();
    bool duplicate = false;
    for (std::size_t c = 0; c < lib->claims.size(); ++c) {
      const std::string& action = lib->claims[c].action;
      auto [it, inserted] = registry.by_action_.emplace(action, std::make_pair(index, c));
      if (!inserted) {
        duplicate = true;
        refuse({"plugin-duplicate-action",
                fmt::format("'{}' and '{}' both claim action '{}'", file,
                            registry.plugins_[it->second.first].name + ".so", action),
                util::SourceLocation{path, 0, 0}});
      }
    }
    if (!duplicate) {
      trace(path, "accepted");
    }
    registry.plugins_.push_back(std::move(*lib));
  }
  for (const auto& [file, hash] : *manifest) {
    // Named: clang 14 cannot capture a structured binding in a lambda.
    const std::string& listed = file;
    if (std::find_if(paths.begin(), paths.end(), [&](const std::string& p) {
          return std::filesystem::path(p).filename() == listed;
        }) == paths.end()) {
      refuse({"plugin-missing", fmt::format("'{}' is in the manifest but not installed", file),
              util::SourceLocation{dir + "/" + file, 0, 0}});
    }
  }
  if (!refusals.empty()) {
    return refusals;
  }
  return registry;
}

const PluginLibrary* Registry::find(const std::string& action) const {
  auto it = by_action_.find(action);
  return it == by_action_.end() ? nullptr : &plugins_[it->second.first];
}

const Claim* Registry::claim(const std::string& action) const {
  auto it = by_action_.find(action);
  return it == by_action_.end() ? nullptr : &plugins_[it->second.first].claims[it->second.second];
}

}  // namespace reviewer::plugins

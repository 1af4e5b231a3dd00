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

// Every stale index is mended the same way, so the message says how.
util::Refusal stale(const std::string& path, const std::string& message) {
  const std::string dir = path.substr(0, path.rfind('/'));
  return util::refusal("plugin-index-stale",
                       message +
                           "; rewrite the index from the verified plugins with `reviewer "
                           "plugin-index " +
                           dir + "` (as the directory's owner)",
                       util::SourceLocation{path, 0, 0});
}

}  // namespace

util::Result<Registry> Registry::load(const std::string& dir) { return make(dir, Mode::kAll); }

util::Result<Registry> Registry::open(const std::string& dir) { return make(dir, Mode::kLazy); }

util::Result<Registry> Registry::load_ignoring_index(const std::string& dir) {
  return make(dir, Mode::kAllIgnoringIndex);
}

util::Result<Registry> Registry::make(const std::string& dir, Mode mode) {
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
  const auto manifested = std::make_shared<const Manifest>(std::move(*manifest));
  std::optional<PluginIndex> index;
  if (mode != Mode::kAllIgnoringIndex) {
    auto read = read_index(dir);
    if (!read) {
      refuse(read.error());
      return refusals;
    }
    index = std::move(*read);
  }
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> installed;
  for (const auto& path : paths) {
    std::string file = std::filesystem::path(path).filename();
    if (file == kManifestName || file == kIndexName) {
      continue;
    }
    if (!file.ends_with(".so")) {
      refuse({"plugin-unexpected-file",
              fmt::format("'{}' in the plugin directory is not a plugin", file),
              util::SourceLocation{path, 0, 0}});
      continue;
    }
    installed.push_back(file);
    if (auto bad = check_candidate(path, *manifested); !bad) {
      refuse(bad.error());
      continue;
    }
    Entry entry{path, manifested, manifested->at(file), {}, false, nullptr, std::nullopt};
    if (index) {
      auto listed = index->find(file);
      if (listed == index->end()) {
        refuse(stale(path, fmt::format("'{}' is installed but not in the plugin index", file)));
        continue;
      }
      if (listed->second.sha256 != entry.sha256) {
        refuse(stale(path, fmt::format("the plugin index was written for a '{}' with SHA-256 "
                                       "{}, the manifest says {}",
                                       file, listed->second.sha256, entry.sha256)));
        continue;
      }
      entry.claims = listed->second.claims;
      entry.from_index = true;
    }
    registry.entries_.push_back(std::move(entry));
  }
  for (const auto& [file, hash] : *manifested) {
    if (std::find(installed.begin(), installed.end(), file) == installed.end()) {
      refuse({"plugin-missing", fmt::format("'{}' is in the manifest but not installed", file),
              util::SourceLocation{dir + "/" + file, 0, 0}});
    }
  }
  if (index) {
    for (const auto& [file, entry] : *index) {
      if (!manifested->contains(file)) {
        refuse(
            stale(dir + "/" + kIndexName,
                  fmt::format("the plugin index lists '{}', which the manifest does not", file)));
      }
    }
  }
  if (!refusals.empty()) {
    return refusals;
  }
  // With an index an opened registry loads nothing yet; everything else loads every plugin now.
  const bool load_now = mode != Mode::kLazy || !index;
  for (auto& entry : registry.entries_) {
    if (!load_now) {
      trace(entry.path, "indexed; verified and loaded when a step uses it");
      continue;
    }
    if (auto loaded = registry.load_entry(entry); !loaded) {
      for (const auto& r : loaded.refusals()) {
        refusals.push_back(r);
      }
      continue;
    }
    entry.claims = entry.library->claims;
  }
  for (std::size_t e = 0; e < registry.entries_.size(); ++e) {
    const Entry& entry = registry.entries_[e];
    for (std::size_t c = 0; c < entry.claims.size(); ++c) {
      const std::string& action = entry.claims[c].action;
      auto [it, inserted] = registry.by_action_.emplace(action, std::make_pair(e, c));
      if (!inserted) {
        refuse({"plugin-duplicate-action",
                fmt::format("'{}' and '{}' both claim action '{}'",
                            std::filesystem::path(entry.path).filename().string(),
                            std::filesystem::path(registry.entries_[it->second.first].path)
                                .filename()
                                .string(),
                            action),
                util::SourceLocation{entry.path, 0, 0}});
      }
    }
  }
  if (!refusals.empty()) {
    return refusals;
  }
  return registry;
}

util::Status Registry::load_entry(const Entry& entry) const {
  if (entry.library) {
    return util::ok_status();
  }
  if (entry.refused) {
    return *entry.refused;
  }
  auto lib = load_plugin(entry.path, *entry.manifest);
  if (lib && entry.from_index && lib->claims != entry.claims) {
    lib = stale(entry.path, fmt::format("'{}' claims other actions or reviewed releases than the "
                                        "plugin index says",
                                        std::filesystem::path(entry.path).filename().string()));
  }
  if (!lib) {
    for (const auto& r : lib.refusals()) {
      trace(entry.path, r.rule + ": " + r.message);
    }
    entry.refused = lib.refusals();
    return lib.refusals();
  }
  trace(entry.path, "accepted");
  entry.library = std::make_unique<PluginLibrary>(std::move(*lib));
  return util::ok_status();
}

const Claim* Registry::claim(const std::string& action) const {
  auto it = by_action_.find(action);
  return it == by_action_.end() ? nullptr : &entries_[it->second.first].claims[it->second.second];
}

std::uint32_t Registry::capabilities(const std::string& action) const {
  const Claim* c = claim(action);
  return c == nullptr ? 0 : c->capabilities;
}

std::vector<std::string> Registry::actions_with(std::uint32_t capability) const {
  std::vector<std::string> out;
  for (const auto& [action, at] : by_action_) {
    if ((entries_[at.first].claims[at.second].capabilities & capability) == capability) {
      out.push_back(action);
    }
  }
  return out;  // by_action_ is ordered
}

util::Result<const PluginLibrary*> Registry::plugin(const std::string& action) const {
  auto it = by_action_.find(action);
  if (it == by_action_.end()) {
    return static_cast<const PluginLibrary*>(nullptr);
  }
  const Entry& entry = entries_[it->second.first];
  if (auto loaded = load_entry(entry); !loaded) {
    return loaded.refusals();
  }
  return static_cast<const PluginLibrary*>(entry.library.get());
}

const PluginLibrary* Registry::find(const std::string& action) const {
  auto it = by_action_.find(action);
  return it == by_action_.end() ? nullptr : entries_[it->second.first].library.get();
}

std::vector<const PluginLibrary*> Registry::loaded() const {
  std::vector<const PluginLibrary*> out;
  for (const auto& entry : entries_) {
    if (entry.library) {
      out.push_back(entry.library.get());
    }
  }
  return out;
}

util::Status Registry::add(Registry other) {
  report::Refusals refusals;
  for (const auto& [action, at] : other.by_action_) {
    if (auto mine = by_action_.find(action); mine != by_action_.end()) {
      refusals.push_back(
          {"plugin-duplicate-action",
           fmt::format("'{}' and '{}' both claim action '{}'", other.entries_[at.first].path,
                       entries_[mine->second.first].path, action),
           util::SourceLocation{other.entries_[at.first].path, 0, 0}});
    }
  }
  if (!refusals.empty()) {
    return refusals;
  }
  const std::size_t base = entries_.size();
  for (auto& [action, at] : other.by_action_) {
    by_action_.emplace(action, std::make_pair(base + at.first, at.second));
  }
  for (auto& entry : other.entries_) {
    entries_.push_back(std::move(entry));
  }
  return util::ok_status();
}

PluginIndex Registry::as_index() const {
  PluginIndex index;
  for (const auto& entry : entries_) {
    index[std::filesystem::path(entry.path).filename().string()] = {entry.sha256, entry.claims};
  }
  return index;
}

}  // namespace reviewer::plugins

#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/plugins/manifest.h"
#include "core/plugins/plugin_index.h"
#include "core/plugins/plugin_library.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::plugins {

// Action id -> the verified plugin that handles it.
//
// Every way of making one checks the whole install first: the directory and manifest (who may
// write them), every file (a .so or an install file, no link, not writable by others, listed in
// the manifest), every listed plugin present, and the index against the manifest. Any refused
// candidate or two plugins claiming one action id (plugin-duplicate-action) refuses the whole
// install, since it is not the one reviewed: every refusal is returned, and no registry. A
// plugin's bytes are always verified against the manifest (SHA-256) and its symbols inspected
// before it is loaded; nothing unverified is loaded.
class Registry {
 public:
  // Verifies and loads every plugin of `dir`; with an index, each plugin's claims must be the
  // index's (plugin-index-stale). For the self-check and the tools that want every plugin.
  static util::Result<Registry> load(const std::string& dir);

  // The same checks, but a plugin is verified and loaded only when plugin() is first asked for
  // it, its claims read meanwhile from the index: a build pays for the plugins its plan uses.
  // An unused plugin's bytes are not read (the self-check, which loads them all, verifies
  // them). Without an index, the same as load().
  static util::Result<Registry> open(const std::string& dir);

  // load() without reading an existing index: what `reviewer plugin-index` writes it from.
  static util::Result<Registry> load_ignoring_index(const std::string& dir);

  // The claim on `action` ("run" for run steps), or nullptr when no plugin claims it; from the
  // index or the loaded descriptor, without loading anything.
  const Claim* claim(const std::string& action) const;
  // The claim's capabilities (REVIEWER_CAPABILITY_*), 0 when no plugin claims `action`.
  std::uint32_t capabilities(const std::string& action) const;
  // The actions whose claims hold every bit of `capability`, sorted: what a message names.
  std::vector<std::string> actions_with(std::uint32_t capability) const;

  // The plugin claiming `action`, verified and loaded on first use (nullptr when none claims
  // it); the load's refusals when it is refused (every later call gives them again). Pointers
  // stay valid for the registry's life. Not thread-safe: the planner asks from one thread.
  util::Result<const PluginLibrary*> plugin(const std::string& action) const;

  // The loaded plugin claiming `action`, nullptr when none is loaded (for callers of load()).
  const PluginLibrary* find(const std::string& action) const;

  // Verifies and loads every plugin not loaded yet, for a command that reads them all (`reviewer
  // explain` looks for a plugin's own rule); the refusals of any plugin refused.
  util::Status load_all() const;

  // How many plugins are installed, and the ones loaded so far, by file name.
  std::size_t size() const { return entries_.size(); }
  std::vector<const PluginLibrary*> loaded() const;
  // The index this registry read, if any (what `reviewer plugin-index` writes from a load()).
  PluginIndex as_index() const;

  // Adds the plugins of `other`, a registry of another directory (an author's plugins, which
  // `reviewer fixtures` and `reviewer plan` take with --plugin-dir; the launcher takes none).
  // Each plugin stays verified against its own directory's manifest; an action claimed in both
  // is plugin-duplicate-action, and then nothing is added.
  util::Status add(Registry other);

 private:
  struct Entry {
    std::string path;
    std::shared_ptr<const Manifest> manifest;  // its directory's
    std::string sha256;                        // the manifest's
    std::vector<Claim> claims;                 // the index's, or the loaded descriptor's
    bool from_index = false;
    mutable std::unique_ptr<PluginLibrary> library;
    mutable std::optional<report::Refusals> refused;
  };
  enum class Mode { kAll, kLazy, kAllIgnoringIndex };
  static util::Result<Registry> make(const std::string& dir, Mode mode);
  util::Status load_entry(const Entry& entry) const;

  std::vector<Entry> entries_;                                            // by file name
  std::map<std::string, std::pair<std::size_t, std::size_t>> by_action_;  // entry, claim index
};

}  // namespace reviewer::plugins

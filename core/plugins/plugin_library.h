#pragma once

#include <reviewer/sdk/abi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/plugins/manifest.h"
#include "core/plugins/plugin_rules.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::plugins {

struct ReviewedRef {
  std::string sha;
  std::string tag;
  friend bool operator==(const ReviewedRef&, const ReviewedRef&) = default;
};

struct Claim {
  std::string action;
  std::vector<ReviewedRef> refs;
  // When `refs` was last checked against the action's release tags (YYYY-MM-DD; the plugin's
  // descriptor, SDK 1.5); empty when the plugin does not say.
  std::string reviewed_on;
  // REVIEWER_CAPABILITY_* bits (the plugin's descriptor, SDK 1.10): what the step is to the
  // job's rules, which know no action by name (capabilities.h).
  std::uint32_t capabilities = 0;
  friend bool operator==(const Claim&, const Claim&) = default;
};

// One verified, loaded plugin. The library behind it stays loaded until the process exits, so
// the descriptor and everything it points to stay valid for as long as this object is used.
struct PluginLibrary {
  std::string name;  // == file stem
  std::string path;
  const reviewer_plugin_descriptor* descriptor = nullptr;
  std::vector<Claim> claims;
  std::vector<PluginRule> rules = {};  // its own refusal rules (SDK 1.11)
};

// The checks that need no byte of `path`: not a link (plugin-symlink), a regular file
// (plugin-not-regular), written by nobody but root or us (plugin-permissions), listed in
// `manifest` (plugin-not-in-manifest). load_plugin() makes them again on what it opens.
util::Status check_candidate(const std::string& path, const Manifest& manifest);

// Verifies `path` against `manifest` and the file rules, inspects its symbols without loading,
// then loads it and checks its descriptor. Refusal rules: plugin-symlink, plugin-not-regular,
// plugin-permissions, plugin-not-in-manifest, plugin-hash-mismatch, plugin-malformed,
// plugin-no-entry, plugin-abi-mismatch, plugin-name-mismatch, plugin-invalid-claim,
// plugin-invalid-rule, plugin-load-failed.
util::Result<PluginLibrary> load_plugin(const std::string& path, const Manifest& manifest);

// True when REVIEWER_DEBUG_PLUGINS is set: every candidate and the reason it was accepted or
// refused goes to stderr (it changes what is printed, never what is loaded).
bool plugin_trace_enabled();

}  // namespace reviewer::plugins

#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/plugins/registry.h"
#include "core/util/result.h"

// The plugins' own refusal rules (SDK 1.11) beside the core's catalogue (refusal_catalogue.h):
// what `reviewer explain`, `reviewer plan --format sarif` and `reviewer fixtures` read.
namespace reviewer::cli {

struct PluginRuleEntry {
  std::string plugin;  // the plugin that gives it
  std::string text;    // its catalogue entry, Markdown
};

// The loaded plugins' own rules by id. plugin-invalid-rule, located at the plugin, for an id the
// core's catalogue already holds (the core's entry would be the one shown) or that two plugins
// give (which entry is meant could not be told).
util::Result<std::map<std::string, PluginRuleEntry>> plugin_rule_entries(
    const plugins::Registry& registry);

// The entry as `reviewer explain` prints it: a heading as the core's catalogue writes one, the
// plugin that gives the rule, and its text.
std::string explain_plugin_rule(std::string_view id, const PluginRuleEntry& entry);

// Whether `rule` is in the core's catalogue or among `plugin_rules`.
bool is_catalogued(const std::string& rule,
                   const std::map<std::string, PluginRuleEntry>& plugin_rules);

}  // namespace reviewer::cli

#include "core/cli/plugin_rule_catalogue.h"

#include <fmt/format.h>

#include "core/cli/refusal_catalogue.h"

namespace reviewer::cli {

util::Result<std::map<std::string, PluginRuleEntry>> plugin_rule_entries(
    const plugins::Registry& registry) {
  std::map<std::string, PluginRuleEntry> out;
  report::Refusals refusals;
  for (const plugins::PluginLibrary* plugin : registry.loaded()) {
    for (const auto& rule : plugin->rules) {
      const util::SourceLocation at{plugin->path, 0, 0};
      if (find_refusal_entry(rule.id)) {
        refusals.push_back(util::refusal(
            "plugin-invalid-rule",
            fmt::format("'{}' gives rule '{}' an entry of its own, but the core's catalogue "
                        "(docs/refusals.md) already holds that rule; name the plugin's rule "
                        "another way",
                        plugin->name, rule.id),
            at));
      } else if (auto [it, added] = out.emplace(rule.id, PluginRuleEntry{plugin->name, rule.text});
                 !added) {
        refusals.push_back(util::refusal("plugin-invalid-rule",
                                         fmt::format("'{}' and '{}' both give rule '{}' an entry",
                                                     plugin->name, it->second.plugin, rule.id),
                                         at));
      }
    }
  }
  if (!refusals.empty()) {
    return refusals;
  }
  return out;
}

std::string explain_plugin_rule(std::string_view id, const PluginRuleEntry& entry) {
  std::string text = entry.text;
  if (!text.ends_with('\n')) {
    text += '\n';
  }
  return fmt::format("### `{}`\n\nA rule of plugin `{}` (its own catalogue entry).\n\n{}", id,
                     entry.plugin, text);
}

bool is_catalogued(const std::string& rule,
                   const std::map<std::string, PluginRuleEntry>& plugin_rules) {
  return plugin_rules.contains(rule) || find_refusal_entry(rule).has_value();
}

}  // namespace reviewer::cli

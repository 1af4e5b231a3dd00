#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "core/cli/author_plugins.h"
#include "core/cli/commands.h"
#include "core/cli/plugin_rule_catalogue.h"
#include "core/cli/refusal_catalogue.h"
#include "core/report/exit_code.h"
#include "core/report/render.h"

namespace reviewer::cli {

namespace {

// A rule the core's catalogue does not hold, looked up among the plugins' own: the installed ones
// and the author's; nullopt when none gives it (the plugins' refusals are printed).
std::optional<std::string> plugin_entry(const std::string& rule,
                                        const std::vector<std::string>& plugin_dirs) {
  auto loaded = open_plugins(plugin_dirs);
  util::Status all = loaded ? loaded->load_all() : util::Status(loaded.refusals());
  auto rules = all ? plugin_rule_entries(*loaded)
                   : util::Result<std::map<std::string, PluginRuleEntry>>(all.refusals());
  if (!rules) {
    for (const auto& r : rules.refusals()) {
      std::cerr << "reviewer: " << report::to_text(r) << "\n";
    }
    return std::nullopt;
  }
  auto it = rules->find(rule);
  if (it == rules->end()) {
    return std::nullopt;
  }
  return explain_plugin_rule(rule, it->second);
}

}  // namespace

void register_explain_command(CLI::App& app, int& exit_code) {
  auto rule = std::make_shared<std::string>();
  auto plugin_dirs = std::make_shared<std::vector<std::string>>();
  auto* sub = app.add_subcommand(
      "explain", "explain a refusal rule (docs/refusals.md, or a plugin's own catalogue entry)");
  sub->add_option("RULE", *rule, "rule id, e.g. expression-at-run-time")->required();
  sub->add_option("--plugin-dir", *plugin_dirs,
                  "also look in the plugins of this directory (with its MANIFEST.sha256); repeat "
                  "for each directory");
  sub->callback([rule, plugin_dirs, &exit_code] {
    auto entry = find_refusal_entry(*rule);
    if (!entry) {
      entry = plugin_entry(*rule, *plugin_dirs);
    }
    if (!entry) {
      std::cerr << "reviewer: no refusal rule '" << *rule
                << "' in docs/refusals.md or in any plugin's own catalogue\n";
      exit_code = report::to_int(report::ExitCode::kUsage);
      return;
    }
    std::cout << *entry;
    exit_code = 0;
  });
}

}  // namespace reviewer::cli

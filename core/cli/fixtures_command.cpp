#include <iostream>
#include <memory>

#include "core/cli/author_plugins.h"
#include "core/cli/commands.h"
#include "core/cli/plugin_rule_catalogue.h"
#include "core/plan/fixtures.h"
#include "core/plugins/registry.h"
#include "core/report/exit_code.h"
#include "core/report/render.h"

namespace reviewer::cli {
namespace {

// A refusal whose rule no catalogue holds prints, but `reviewer explain` cannot say what it
// means and SARIF has nothing to link: the case fails, naming where the entry goes.
void hold_to_catalogues(plan::FixtureResult& result, const plugins::Registry& registry) {
  auto rules = plugin_rule_entries(registry);
  if (!rules) {
    result.passed = false;
    result.detail = report::to_text(rules.error());
    return;
  }
  for (const auto& rule : result.rules) {
    if (!is_catalogued(rule, *rules)) {
      result.passed = false;
      result.detail = "refusal rule '" + rule +
                      "' is in no catalogue: docs/refusals.md does not hold it and no plugin "
                      "gives it an entry (REVIEWER_PLUGIN_WITH_RULES)";
      return;
    }
  }
}

int run(const std::vector<std::string>& dirs, const std::vector<std::string>& plugin_dirs) {
  auto loaded = open_plugins(plugin_dirs);
  if (!loaded) {
    for (const auto& r : loaded.refusals()) {
      std::cout << "FAIL plugin host: " << report::to_text(r) << "\n";
    }
    std::cout << "0 passed, " << loaded.refusals().size() << " failed\n";
    return 1;
  }
  int passed = 0;
  int failed = 0;
  for (const auto& dir : dirs) {
    for (auto& r : plan::run_fixtures(dir, *loaded)) {
      hold_to_catalogues(r, *loaded);
      std::cout << (r.passed ? "PASS " : "FAIL ") << r.file << ": " << r.name << "\n";
      if (!r.passed) {
        std::cout << "    " << r.detail << "\n";
      }
      (r.passed ? passed : failed)++;
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}

}  // namespace

void register_fixtures_command(CLI::App& app, int& exit_code) {
  auto dirs = std::make_shared<std::vector<std::string>>();
  auto plugin_dirs = std::make_shared<std::vector<std::string>>();
  auto* sub = app.add_subcommand(
      "fixtures", "run plugin fixtures (PLUGIN_DIR/fixtures/*.yml) through the plugin host");
  sub->add_option("PLUGIN_DIR", *dirs, "plugin source directories, e.g. plugins/checkout")
      ->required();
  sub->add_option("--plugin-dir", *plugin_dirs,
                  "also load the built plugins of this directory (with its MANIFEST.sha256, as "
                  "`sha256sum *.so` writes it); repeat for each directory");
  sub->callback([dirs, plugin_dirs, &exit_code] { exit_code = run(*dirs, *plugin_dirs); });
}

}  // namespace reviewer::cli

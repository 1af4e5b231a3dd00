// `reviewer plugin-index DIR`: writes the plugin directory's PLUGINS.index from its verified,
// loaded plugins, so the launcher can plan from it and load only the plugins a build uses.
// `cmake --install` runs it after writing the manifest.
#include <iostream>
#include <memory>

#include "core/cli/commands.h"
#include "core/cli/plugin_rule_catalogue.h"
#include "core/plugins/write_index.h"
#include "core/report/exit_code.h"
#include "core/report/render.h"

namespace reviewer::cli {

void register_plugin_index_command(CLI::App& app, int& exit_code) {
  auto dir = std::make_shared<std::string>();
  auto* sub = app.add_subcommand(
      "plugin-index", "write a plugin directory's PLUGINS.index from its verified plugins");
  sub->add_option("DIR", *dir, "the plugin directory, with its MANIFEST.sha256")->required();
  sub->callback([dir, &exit_code] {
    // A plugin whose own rule the core's catalogue holds, or another plugin gives, is refused at
    // install time, before a review could show the wrong entry.
    util::Status written = util::ok_status();
    if (auto loaded = plugins::Registry::load_ignoring_index(*dir); loaded) {
      if (auto rules = plugin_rule_entries(*loaded); !rules) {
        written = rules.refusals();
      }
    }
    if (written) {
      written = plugins::write_index(*dir);
    }
    if (!written) {
      for (const auto& r : written.refusals()) {
        std::cerr << "reviewer: " << report::to_text(r) << "\n";
      }
      exit_code = report::to_int(report::ExitCode::kRefused);
      return;
    }
    exit_code = 0;
  });
}

}  // namespace reviewer::cli

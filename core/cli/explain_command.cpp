#include <iostream>
#include <memory>
#include <string_view>

#include "core/cli/commands.h"
#include "core/cli/refusal_catalogue.h"
#include "core/report/exit_code.h"

namespace reviewer::cli {

void register_explain_command(CLI::App& app, int& exit_code) {
  auto rule = std::make_shared<std::string>();
  auto* sub = app.add_subcommand("explain", "explain a refusal rule (docs/refusals.md)");
  sub->add_option("RULE", *rule, "rule id, e.g. expression-at-run-time")->required();
  sub->callback([rule, &exit_code] {
    auto entry = find_refusal_entry(*rule);
    if (!entry) {
      std::cerr << "reviewer: no refusal rule '" << *rule << "' (see docs/refusals.md)\n";
      exit_code = report::to_int(report::ExitCode::kUsage);
      return;
    }
    std::cout << *entry;
    exit_code = 0;
  });
}

}  // namespace reviewer::cli

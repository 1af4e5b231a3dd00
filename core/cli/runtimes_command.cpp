// `reviewer runtimes check [FILE]`: validates the trusted runtime catalogue the way the resolver
// reads it, and prints the one refusal (rule id and the offending JSON pointer) or a summary.
// FILE defaults to the installed catalogue, beside the runtime matrix. Exit 0 valid, 2 usage,
// 3 refused.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>

#include "core/cli/commands.h"
#include "core/report/exit_code.h"
#include "core/report/refusal.h"
#include "core/report/render.h"
#include "core/resolve/runtime_catalogue.h"
#include "core/util/install_layout.h"

namespace reviewer::cli {
namespace {

int run_check(const std::string& file) {
  auto catalogue = resolve::load_runtime_catalogue(file);
  if (!catalogue) {
    std::cout << report::to_text(report::Refusal{catalogue.error().rule, catalogue.error().message,
                                                 std::nullopt})
              << '\n';
    return report::to_int(report::ExitCode::kRefused);
  }
  const auto with_npm =
      std::count_if(catalogue->node.begin(), catalogue->node.end(),
                    [](const resolve::CatalogueRelease& r) { return !r.npm.empty(); });
  std::cout << file << ": ok: " << catalogue->node.size() << " node releases (" << with_npm
            << " with their npm recorded), " << catalogue->bun.size() << " bun releases, "
            << catalogue->npm.size() << " npm, " << catalogue->corepack.size()
            << " corepack, schedule lines " << catalogue->node_schedule.lines.size() << '\n';
  return report::to_int(report::ExitCode::kOk);
}

}  // namespace

CLI::App* register_runtimes_command(CLI::App& app, int& exit_code) {
  CLI::App* runtimes = app.add_subcommand("runtimes", "the trusted runtime catalogue");
  runtimes->require_subcommand(1);
  auto file = std::make_shared<std::string>(util::data_directory() + "/runtimes.json");
  CLI::App* check = runtimes->add_subcommand(
      "check",
      "validate a runtime catalogue: schema, unknown keys, checksum shapes, order, bundles");
  check->add_option("FILE", *file,
                    "the catalogue (default: <prefix>/share/reviewer/runtimes.json), e.g. "
                    "matrix/runtimes.json");
  check->callback([file, &exit_code] { exit_code = run_check(*file); });
  return runtimes;
}

}  // namespace reviewer::cli

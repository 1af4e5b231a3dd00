// `reviewer matrix check FILE`: validates a trusted runtime table the way the launcher and the
// image build read it, and prints the one refusal (rule id and the offending JSON pointer) or a
// summary. CI runs it on matrix/runtime-matrix.json. Exit 0 valid, 2 usage, 3 refused.
#include <iostream>
#include <memory>
#include <string>

#include "core/cli/commands.h"
#include "core/report/exit_code.h"
#include "core/report/refusal.h"
#include "core/report/render.h"
#include "core/resolve/runtime_table.h"

namespace reviewer::cli {
namespace {

int run_check(const std::string& file) {
  auto matrix = resolve::load_runtime_table(file);
  if (!matrix) {
    std::cout << report::to_text(
                     report::Refusal{matrix.error().rule, matrix.error().message, std::nullopt})
              << '\n';
    return report::to_int(report::ExitCode::kRefused);
  }
  std::size_t versions = 0;
  for (const auto& [tool, by_version] : matrix->runtimes) {
    versions += by_version.size();
  }
  std::cout << file << ": ok: " << matrix->images.size() << " images, " << versions
            << " runtime versions, base " << matrix->base.suite << " " << matrix->base.digest
            << '\n';
  return report::to_int(report::ExitCode::kOk);
}

}  // namespace

void register_runtime_table_command(CLI::App& app, int& exit_code) {
  CLI::App* matrix = app.add_subcommand("matrix", "the trusted runtime table");
  matrix->require_subcommand(1);
  auto file = std::make_shared<std::string>();
  CLI::App* check = matrix->add_subcommand(
      "check", "validate a runtime table: schema, unknown keys, duplicate names, checksum shapes");
  check->add_option("FILE", *file, "the table, e.g. matrix/runtime-matrix.json")->required();
  check->callback([file, &exit_code] { exit_code = run_check(*file); });
}

}  // namespace reviewer::cli

// reviewer: the host, CI and plugin-author command line (review, plan, expression, resolve, guard,
// semver, explain, fixtures, matrix, runtimes). Each subcommand lives in its own
// <name>_command.cpp.
#include <exception>
#include <iostream>

#include "core/cli/commands.h"
#include "core/report/exit_code.h"
#include "core/util/crypto_init.h"

int main(int argc, char** argv) {
  using reviewer::report::ExitCode;
  reviewer::util::init_crypto();
  CLI::App app{"reviewer: plan, resolve and check review builds of pull requests"};
  app.require_subcommand(1);
  int exit_code = 0;
  reviewer::cli::register_plan_command(app, exit_code);
  reviewer::cli::register_explain_command(app, exit_code);
  reviewer::cli::register_semver_command(app, exit_code);
  reviewer::cli::register_resolve_command(app, exit_code);
  reviewer::cli::register_guard_command(app, exit_code);
  reviewer::cli::register_fixtures_command(app, exit_code);
  reviewer::cli::register_review_command(app, exit_code);
  reviewer::cli::register_expression_command(app, exit_code);
  reviewer::cli::register_runtime_table_command(app, exit_code);
  reviewer::cli::register_runtimes_update_command(
      *reviewer::cli::register_runtimes_command(app, exit_code), exit_code);
  reviewer::cli::register_fetch_command(app, exit_code);
  reviewer::cli::register_verify_command(app, exit_code);
  reviewer::cli::register_plugin_index_command(app, exit_code);
  reviewer::cli::register_gc_command(app, exit_code);
  reviewer::cli::register_assignment_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : reviewer::report::to_int(ExitCode::kUsage);
  } catch (const std::exception& e) {
    std::cerr << "reviewer: internal error: " << e.what() << "\n";
    return reviewer::report::to_int(ExitCode::kInternal);
  }
  return exit_code;
}

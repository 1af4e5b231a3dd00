#pragma once

#include <CLI/CLI.hpp>

namespace reviewer::cli {

// Each `reviewer` subcommand lives in its own <name>_command.cpp and registers itself here; its
// callback stores the command's exit code in `exit_code` (see report/exit_code.h).
void register_plan_command(CLI::App& app, int& exit_code);
void register_explain_command(CLI::App& app, int& exit_code);
void register_semver_command(CLI::App& app, int& exit_code);
void register_resolve_command(CLI::App& app, int& exit_code);
void register_guard_command(CLI::App& app, int& exit_code);
void register_fixtures_command(CLI::App& app, int& exit_code);
void register_review_command(CLI::App& app, int& exit_code);
void register_expression_command(CLI::App& app, int& exit_code);
void register_runtime_table_command(CLI::App& app, int& exit_code);
void register_fetch_command(CLI::App& app, int& exit_code);
// Registers `runtimes` with its `check`, and returns it so that other commands on the trusted
// runtime catalogue can be added to the same parent.
CLI::App* register_runtimes_command(CLI::App& app, int& exit_code);
// Adds `update` to the `runtimes` parent.
void register_runtimes_update_command(CLI::App& runtimes, int& exit_code);

// What `reviewer plan` and `reviewer review` both take of the host's knowledge of the pull
// request and of the reference spec's rule: --pinned-only, --same-repository and --event FILE.
void add_pull_request_options(CLI::App* sub, bool& pinned_only, bool& same_repository,
                              std::string& event_file);
void register_verify_command(CLI::App& app, int& exit_code);
void register_plugin_index_command(CLI::App& app, int& exit_code);
void register_gc_command(CLI::App& app, int& exit_code);
void register_assignment_command(CLI::App& app, int& exit_code);

}  // namespace reviewer::cli

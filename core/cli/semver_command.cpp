// `reviewer semver` registered with the full command line; the front end (front_main.cpp) runs
// the same run_semver() without starting it.
#include "core/cli/commands.h"
#include "core/cli/semver_cli.h"

namespace reviewer::cli {

void register_semver_command(CLI::App& app, int& exit_code) {
  CLI::App* sub = app.add_subcommand(
      "semver", "npm semver's command line: print the versions that satisfy every range");
  // Everything after `semver` is ours to parse, as semver.js parses it (including -h).
  sub->prefix_command();
  sub->set_help_flag();
  sub->allow_extras();
  sub->callback([sub, &exit_code] { exit_code = run_semver(sub->remaining()); });
}

}  // namespace reviewer::cli

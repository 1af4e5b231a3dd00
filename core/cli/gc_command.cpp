// `reviewer gc`: removes what reviews killed outright (SIGKILL) left on this host: their podman
// sandboxes and resolution containers, their run-model sandboxes and their clones
// (core/host/leftovers.h). Every review does the same first; this is for an operator's timer.
#include <cstdlib>
#include <iostream>
#include <memory>

#include "core/cli/commands.h"
#include "core/exec/host_process.h"
#include "core/host/leftovers.h"
#include "core/util/install_layout.h"

namespace reviewer::cli {

void register_gc_command(CLI::App& app, int& exit_code) {
  auto* sub = app.add_subcommand(
      "gc", "remove the sandboxes and clones of reviews whose host process is gone");
  sub->callback([&exit_code] {
    const bool podman = static_cast<bool>(exec::command_output({"sh", "-c", "command -v podman"}));
    const char* tmp = std::getenv("TMPDIR");
    const auto said = host::collect_leftovers(podman ? util::data_directory() + "/engine.sh" : "",
                                              tmp != nullptr && *tmp != '\0' ? tmp : "/tmp");
    for (const auto& line : said) {
      std::cout << line << '\n';
    }
    std::cout << "gc: " << said.size() << " leftover(s) of gone reviews handled\n";
    exit_code = 0;
  });
}

}  // namespace reviewer::cli

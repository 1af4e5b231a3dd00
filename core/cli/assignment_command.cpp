// `reviewer assignment`: a sandbox's assignment as its creation environment, for whoever makes
// a sandbox by hand (the run model: docker/run-model/run-model.sh --assign ENTRY) with the one
// encoder both engines use (core/contract/assignment.h).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "core/cli/commands.h"
#include "core/contract/assignment.h"
#include "core/plan/event_facts.h"
#include "core/report/exit_code.h"
#include "core/report/source_excerpt.h"

namespace reviewer::cli {

void register_assignment_command(CLI::App& app, int& exit_code) {
  struct Options {
    contract::Assignment assignment;
    std::vector<std::string> matrix;
    std::string event_file;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "assignment",
      "print a sandbox's assignment, checked, as NUL-terminated NAME=VALUE entries of its "
      "creation environment");
  sub->add_option("--workflow", o->assignment.workflow,
                  "the workflow file, under .github/workflows/")
      ->required();
  sub->add_option("--job", o->assignment.job, "the job id")->required();
  sub->add_option("--base", o->assignment.base, "the pull request's base branch")->required();
  sub->add_option("--matrix", o->matrix,
                  "NAME=VALUE: the combination of a matrix job (repeat per key)");
  add_pull_request_options(sub, o->assignment.pinned_only, o->assignment.same_repository,
                           o->event_file);
  sub->callback([o, &exit_code] {
    contract::Assignment a = o->assignment;
    for (const auto& m : o->matrix) {
      a.matrix += (a.matrix.empty() ? "" : "\n") + m;
    }
    if (!o->event_file.empty()) {
      auto facts = plan::read_event_file(o->event_file, a.base);
      if (!facts) {
        std::cerr << "reviewer assignment: " << report::printable(facts.error().to_string())
                  << '\n';
        exit_code = report::to_int(report::ExitCode::kUsage);
        return;
      }
      a.event = plan::event_facts_json(*facts);
    }
    auto checked = contract::check_assignment(std::move(a));
    if (!checked || checked->job.empty() || checked->base.empty()) {
      std::cerr << "reviewer assignment: "
                << (checked ? "--job and --base must not be empty"
                            : report::printable(checked.error().to_string()))
                << '\n';
      exit_code = report::to_int(report::ExitCode::kUsage);
      return;
    }
    for (const auto& entry : contract::assignment_environment(*checked)) {
      std::cout << entry << '\0';
    }
    std::cout.flush();
    exit_code = std::cout ? 0 : report::to_int(report::ExitCode::kUsage);
  });
}

}  // namespace reviewer::cli

// `reviewer review`: what a reviewer host does for one job of a pull request (core/host).
#include <memory>

#include "core/cli/commands.h"
#include "core/host/review.h"

namespace reviewer::cli {

void register_review_command(CLI::App& app, int& exit_code) {
  auto r = std::make_shared<host::ReviewRequest>();
  CLI::App* sub = app.add_subcommand(
      "review", "plan, clone, pick the image, and run the launcher in a fresh sandbox for one job");
  sub->add_option("REPO", r->repository, "a local git repository or a URL git can fetch")
      ->required();
  sub->add_option("--workflow", r->workflow, "the workflow file, under .github/workflows/")
      ->required();
  sub->add_option("--job", r->job, "the job id")->required();
  sub->add_option("--base", r->base, "the pull request's base branch")->required();
  sub->add_option("--head", r->head, "branch, tag or commit to review (default: REPO's HEAD)");
  sub->add_option("--engine", r->engine,
                  "podman (default where installed), docker, or namespaces (the run model)");
  sub->add_option("--stage", r->stage, "the namespaces engine's staged install");
  sub->add_option("--reports", r->reports_dir, "copy report.json and report.xml here");
  sub->add_flag("--keep-clone", r->keep_clone, "leave the clone in place and print its path");
  sub->callback([r, &exit_code] { exit_code = host::review(*r); });
}

}  // namespace reviewer::cli

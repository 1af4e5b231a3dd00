// `reviewer review`: what a reviewer host does for one job of a pull request (core/host).
#include <memory>
#include <string>
#include <vector>

#include "core/cli/commands.h"
#include "core/host/review.h"

namespace reviewer::cli {

void register_review_command(CLI::App& app, int& exit_code) {
  auto r = std::make_shared<host::ReviewRequest>();
  auto matrix = std::make_shared<std::vector<std::string>>();
  CLI::App* sub = app.add_subcommand(
      "review", "plan, clone, pick the image, and run the launcher in a fresh sandbox for one job");
  sub->add_option("REPO", r->repository, "a local git repository or a URL git can fetch")
      ->required();
  sub->add_option("--workflow", r->assignment.workflow,
                  "the workflow file, under .github/workflows/")
      ->required();
  sub->add_option("--job", r->assignment.job, "the job id")->required();
  sub->add_option("--base", r->assignment.base, "the pull request's base branch")->required();
  sub->add_option("--matrix", *matrix,
                  "NAME=VALUE: the combination of a matrix job to review (repeat per key)");
  sub->add_option("--head", r->head, "branch, tag or commit to review (default: REPO's HEAD)");
  sub->add_option("--engine", r->engine,
                  "podman (default where installed), docker, or namespaces (the run model)");
  sub->add_option("--stage", r->stage, "the namespaces engine's staged install");
  sub->add_option("--reports", r->reports_dir, "copy report.json and report.xml here");
  sub->add_flag("--keep-clone", r->keep_clone, "leave the clone in place and print its path");
  add_pull_request_options(sub, r->assignment.pinned_only, r->assignment.same_repository,
                           r->event_file);
  sub->add_option("--pids-limit", r->pids_limit, "processes the sandbox may hold (default 4096)")
      ->check(CLI::Range(16, 1 << 22));
  sub->add_option("--memory", r->memory_limit, "memory the sandbox may use (default 8g)")
      ->check([](const std::string& v) {
        return v.find_first_not_of("0123456789") == 0 ||
                       v.find_first_not_of("0123456789bkmgBKMG") != std::string::npos || v.empty()
                   ? std::string("a size such as 512m or 8g, not \"") + v + "\""
                   : std::string();
      });
  sub->add_option("--cpus", r->cpu_limit, "CPUs the sandbox may use (default 2)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--store", r->store_dir,
                  "the dependency store shared by reviews (default $XDG_CACHE_HOME/reviewer/deps "
                  "or ~/.cache/reviewer/deps)");
  sub->add_option("--registry", r->registry, "the registry every tarball must come from");
  sub->add_option("--max-dependency-bytes", r->max_dependency_bytes,
                  "bound on the tarballs the lock pins, together (default 2 GiB)");
  sub->callback([r, matrix, &exit_code] {
    for (const auto& m : *matrix) {
      r->assignment.matrix += (r->assignment.matrix.empty() ? "" : "\n") + m;
    }
    exit_code = host::review(*r);
  });
}

}  // namespace reviewer::cli

#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/plan/plan.h"
#include "core/plan/repository_files.h"
#include "core/plugins/registry.h"
#include "core/report/refusal.h"
#include "core/util/result.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

struct PlanRequest {
  std::string workflow_file;  // as named in locations (the path inside the repository)
  std::string job;
  std::string base;
  // The matrix combination the host chose (NAME=VALUE pairs) for the named job.
  std::vector<std::pair<std::string, std::string>> matrix = {};
  // The reference spec's stricter rule: actions only at reviewed commit SHAs, no release tags.
  bool pinned_only = false;
  // The repository's files, for the local actions its steps call (`uses: ./path`); nullptr:
  // none can be read, and each is refused (local-action-missing).
  const RepositoryFiles* files = nullptr;
  // The host's description of the pull request (read_event_facts): `github` fields an expression
  // may read; empty: only what the pull_request event fixes.
  expr::Object event = {};
  // The host reviews a pull request from the same repository (`--same-repository`): its run has
  // the repository's secrets, so an expression reading one is refused; otherwise a fork's, whose
  // secrets are all empty.
  bool same_repository = false;
};

// Plans `request.job` and the jobs it needs from an already bounded-loaded workflow, collecting
// every refusal in one pass.
util::Result<Plan> plan_workflow(const yaml::Node& root, const PlanRequest& request,
                                 const plugins::Registry& registry);

// Loads `text` (the workflow request.workflow_file names) within the YAML bounds (a crossed
// bound stops at once) and plans it.
util::Result<Plan> plan_text(std::string_view text, const PlanRequest& request,
                             const plugins::Registry& registry);

// Reads `path` within the bounds (yaml::read_bounded: no symlink followed) and plans it. A caller
// that shows each refusal's source line and caret reads the file itself with read_bounded and
// calls plan_text, so the excerpts come from the very bytes that were planned.
util::Result<Plan> plan_file(const std::string& path, const PlanRequest& request,
                             const plugins::Registry& registry);

}  // namespace reviewer::plan

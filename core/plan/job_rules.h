#pragma once

#include <string>

#include "core/plan/findings.h"
#include "core/plan/plan.h"
#include "core/plugins/registry.h"
#include "core/plugins/workflow_view.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// What a job inherits from the workflow level.
struct WorkflowDefaults {
  std::vector<workflow::Entry> env;
  std::optional<std::string> shell;
  std::optional<std::string> working_directory;
  std::string file;
  const yaml::Node* jobs = nullptr;  // the workflow's `jobs`: the plugins' workflow-wide view
  const plugins::WorkflowView* view = nullptr;  // built from `jobs` once per workflow
};

// Reads the `defaults.run` of a workflow or a job (`where` names the level).
void read_defaults(const yaml::Node& owner, const std::string& where, WorkflowDefaults& into,
                   Findings& findings);

// Plans one job: job-level rules, then each step through its plugin.
PlannedJob plan_job(const std::string& id, const yaml::Node& job, const WorkflowDefaults& defaults,
                    const plugins::Registry& registry, std::vector<plugins::RuntimePin>& pins,
                    Findings& findings);

}  // namespace reviewer::plan

#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/expr/value.h"
#include "core/plan/job_rules.h"
#include "core/plan/plan.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// GitHub connects at most ten levels of workflows: the top-level caller and nine levels of
// reusable workflows (docs.github.com, "Limitations of reusable workflows", since 2025-11).
inline constexpr std::size_t kMaxWorkflowLevels = 10;
// ... and calls at most 50 unique reusable workflows from one top-level workflow file, the
// nested ones included.
inline constexpr std::size_t kMaxCalledWorkflows = 50;
// The review's own bound on the jobs called workflows add to one plan: a workflow whose every job
// calls another would otherwise multiply at every level.
inline constexpr std::size_t kMaxCalledJobs = 1000;

// What the jobs of one called workflow read that the call decides: its `inputs` and `secrets`
// contexts, and the workflow files on the way to it, the top-level one first and it last.
struct CallScope {
  expr::Object inputs;
  // nullopt: unknown (`secrets: inherit` of a same-repository pull request's secrets).
  std::optional<expr::Object> secrets;
  std::vector<std::string> chain;
};

// What calling workflows shares across one plan: each file loaded once (nullptr: it was refused,
// and said so once), and what has been counted against the bounds above.
struct CalledWorkflowState {
  std::map<std::string, std::shared_ptr<const yaml::Node>> loaded;
  std::size_t jobs = 0;
  bool over_bound = false;  // a bound was crossed (and refused once)
};

// The keys GitHub allows on a job that calls a reusable workflow: name, uses, with, secrets,
// strategy, needs, if, concurrency, permissions.
bool is_caller_job_key(std::string_view key);

// `contexts` of a job inside a called workflow: its `inputs` and `secrets` are the call's.
expr::Object in_call(const expr::Object& contexts, const CallScope& call);

// Inlines the local reusable workflow `job` calls (`uses: ./.github/workflows/x.yml`) into `out`
// (whose contexts, matrix and condition are already read), as GitHub runs it: the file read from
// the repository without following a link and loaded within the workflow's YAML bounds; it must
// say `on: workflow_call`; the caller's `with:` bound to the declared inputs with their types
// (required inputs, unknown inputs and type mismatches refused, as GitHub fails the run there),
// defaults applied; the named secrets bound (a fork pull request's are empty), undeclared or
// missing required ones refused; every job of the called workflow planned by the same rules, in
// its own scope (its env and defaults, not the caller's), in dependency order; its outputs kept
// for the launcher. A workflow of another repository is refused (reusable-workflow), as are a
// cycle and nesting past GitHub's bounds. Each refusal is located in the file it is about.
void plan_call(const yaml::Node& job, PlannedJob& out, WorkflowPlanning& planning);

}  // namespace reviewer::plan

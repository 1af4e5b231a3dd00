#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/expr/value.h"
#include "core/plan/planner.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

// The assignment: what the host assigns a sandbox at its creation, carried as one value from the
// command line (`reviewer review`) through the plan and the sandbox's creation environment to the
// launcher's plan and the attested facts. Both engines write it with assignment_environment() and
// the launcher reads it with read_assignment_environment(); nothing else spells its variables.
namespace reviewer::contract {

// What the host assigned this sandbox at creation: fixed for its lifetime.
struct Assignment {
  std::string workflow;  // path of the workflow file inside the repository
  std::string job;
  std::string base;
  // REVIEWER_CI_MATRIX: the matrix combination chosen for the job, NAME=VALUE a line; optional.
  std::string matrix;
  std::vector<std::pair<std::string, std::string>> matrix_choice;  // `matrix`, read
  // REVIEWER_CI_PINNED_ONLY=true: the reference spec's rule, only reviewed SHAs (`reviewer review
  // --pinned-only`); absent or empty: release tags of reviewed releases are accepted.
  bool pinned_only = false;
  // REVIEWER_CI_SAME_REPOSITORY=true: the pull request comes from the reviewed repository
  // (`reviewer review --same-repository`): reading a secret is refused; absent or empty: a fork's,
  // whose secrets are empty.
  bool same_repository = false;
  // REVIEWER_CI_EVENT: the host's description of the pull request (plan/event_facts.h), compact
  // JSON; optional.
  std::string event;
  expr::Object event_facts;  // `event`, read
};

// The sandbox's creation environment for `a`: "NAME=VALUE" entries, one per variable, in a fixed
// order (REVIEWER_CI_WORKFLOW, _JOB, _BASE, _MATRIX, _PINNED_ONLY, _EVENT, _SAME_REPOSITORY), a
// flag "true" or empty. Written as it is, unchecked: the host checks with check_assignment()
// before it creates a sandbox, and the launcher checks what it reads.
std::vector<std::string> assignment_environment(const Assignment& a);

// The assignment in an environment (`env`, NAME -> VALUE, as util::parse_environ reads a
// NUL-separated block), checked with check_assignment(). Refuses assignment-missing (a workflow,
// job or base absent or empty, named with `where`: "in the container init's environment") and
// assignment-invalid (REVIEWER_CI_PINNED_ONLY or REVIEWER_CI_SAME_REPOSITORY other than `true` or
// empty), then whatever check_assignment() refuses.
util::Result<Assignment> read_assignment_environment(const std::map<std::string, std::string>& env,
                                                     const std::string& where);

// The one check of an assignment's values, made by the host before it creates a sandbox and by
// the launcher when it reads one: assignment-invalid for a workflow path outside
// .github/workflows/, with '..', '//', a control byte or space, or not ending .yml/.yaml; a
// matrix choice that is not NAME=VALUE lines (matrix-choice-invalid); an event description that
// read_event_facts refuses (event-invalid, event-mismatch).
util::Result<Assignment> check_assignment(Assignment a);

// Refuses assignment-mismatch when the caller's own environment names a different workflow,
// job, base, matrix, pinned-only rule, event or same-repository flag than the assignment (a
// caller trying to choose).
util::Status check_caller_environment(const Assignment& assigned, char** caller_env);

// What the planner is asked for this assignment, reading local actions from `files`.
plan::PlanRequest plan_request(const Assignment& a, const plan::RepositoryFiles* files);

}  // namespace reviewer::contract

#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/expr/value.h"
#include "core/launch/init_environment.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::launch {

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

// Reads the assignment from the container init's environment (`init`, normally /proc/1/environ),
// never from the caller. Refuses assignment-missing (a variable absent or
// empty) and assignment-invalid (a workflow path outside .github/workflows/ or with '..', or
// REVIEWER_CI_PINNED_ONLY or REVIEWER_CI_SAME_REPOSITORY other than `true` or empty).
util::Result<Assignment> read_assignment(const InitEnvironment& init);
// The same, opening `environ_path` first.
util::Result<Assignment> read_assignment(const std::string& environ_path);

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

// The launcher's whole argument surface: none (build /workspace) or `--self-check`. Anything
// else is refused (launcher-arguments) without being interpreted.
enum class Mode { kBuild, kSelfCheck };
util::Result<Mode> parse_arguments(const std::vector<std::string>& args);

}  // namespace reviewer::launch

#pragma once

#include <string>
#include <string_view>

#include "core/expr/value.h"
#include "core/util/result.h"

namespace reviewer::plan {

// The largest event description, as compact JSON: it travels to the sandbox in one environment
// variable (REVIEWER_CI_EVENT), under the kernel's 128 KiB bound for one. A description as
// written (indented) may be larger, up to kMaxEventFileBytes.
inline constexpr std::size_t kMaxEventBytes = 96 * 1024;
inline constexpr std::size_t kMaxEventFileBytes = 1 << 20;

// The `github` fields a host may describe the pull request with (`reviewer review --event FILE`):
// the repository, the head branch and commit, the refs, the actor, and `event`, the
// pull_request webhook payload. Run ids, the token and the workflow's own fields are the real
// run's and stay unknown.
inline constexpr std::string_view kEventFields[] = {"event",
                                                    "repository",
                                                    "repository_id",
                                                    "repository_owner",
                                                    "repository_owner_id",
                                                    "repositoryUrl",
                                                    "head_ref",
                                                    "sha",
                                                    "ref",
                                                    "ref_name",
                                                    "ref_type",
                                                    "actor",
                                                    "actor_id",
                                                    "triggering_actor"};

// Reads an event description: a JSON object of kEventFields (strings, `event` an object) for a
// pull request into `base`. The fields GitHub itself takes from the payload are filled from it
// when the description leaves them out: repository and repository_owner from
// event.repository, head_ref from event.pull_request.head.ref, ref and ref_name from
// event.number (refs/pull/N/merge). Refuses event-invalid (not such an object, an unknown field,
// a wrong type, too large or too deep) and event-mismatch (a field that contradicts another or
// the payload, or a payload whose base branch is not `base`). `where` names the description.
util::Result<expr::Object> read_event_facts(std::string_view json, const std::string& base,
                                            const std::string& where);

// Reads the description from the file `path` (the host's `--event FILE`), as read_event_facts.
util::Result<expr::Object> read_event_file(const std::string& path, const std::string& base);

// The description as the assignment carries it: compact JSON of what read_event_facts read,
// which reads back to the same facts.
std::string event_facts_json(const expr::Object& facts);

}  // namespace reviewer::plan

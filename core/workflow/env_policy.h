#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace reviewer::workflow {

// Why a variable name may not be set by a workflow or a step (shared/reference/env-policy.md):
// the verdict's harness, the launcher's own tools and the review's honesty depend on it.
struct EnvVerdict {
  std::string rule;  // invalid-env-name, launcher-owned-env, credential-shaped-env,
                     // config-redirecting-env
  std::string reason;
  // A credential's name or shape: an empty value of it carries no credential.
  bool credential = false;
};

// The refusal for `name`, or nullopt if a workflow may set it. Matched without regard to case.
std::optional<EnvVerdict> check_env_name(std::string_view name);

// The refusal for setting `name` to `value`: check_env_name's, except that a credential-shaped
// name with an empty value carries no credential (a fork pull request's secret evaluates to
// nothing) and is accepted.
std::optional<EnvVerdict> check_env_entry(std::string_view name, std::string_view value);

// Names the launcher itself sets in every step's environment; a workflow may not set them.
bool is_launcher_owned(std::string_view name);

}  // namespace reviewer::workflow

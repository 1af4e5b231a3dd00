#pragma once

#include <string>
#include <vector>

#include "core/plugins/invoke.h"

// Which registry `npm_config_registry` names in the review's steps. pnpm 9 and 10 install from the
// view's file: registry; pnpm 8 cannot ("Couldn't get host" for a file: URL, measured with
// 8.15.9) and reads no other registry setting, so a plan that pins it gets the loopback registry
// there (deps/provision/loopback_registry.h). npm reads the same name: in such a plan its cache
// lookups of registry metadata (a global install, an install without a lock) are keyed under the
// loopback's URL and miss, where a tarball it finds by integrity is unaffected.
// docs/dependencies.md, "pnpm 8".
namespace reviewer::deps {

// Whether `pins` pin pnpm below 9 (an exact release or a range whose versions all are).
bool pins_pnpm_before_9(const std::vector<plugins::RuntimePin>& pins);

// The value for npm_config_registry: `http` (the loopback's URL, "" when none runs) when the plan
// pins pnpm 8 or earlier, else `file` (the view's file: registry, "" when the view has none).
std::string npm_config_registry(const std::vector<plugins::RuntimePin>& pins,
                                const std::string& file, const std::string& http);

}  // namespace reviewer::deps

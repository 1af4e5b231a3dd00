#include "core/deps/provision/npm_config_registry.h"

#include <algorithm>

#include "core/semver/range.h"
#include "core/semver/version.h"

namespace reviewer::deps {

bool pins_pnpm_before_9(const std::vector<plugins::RuntimePin>& pins) {
  return std::any_of(pins.begin(), pins.end(), [](const plugins::RuntimePin& p) {
    if (p.runtime != "pnpm") {
      return false;
    }
    if (auto v = semver::parse_version(p.version)) {
      return v->major < 9;
    }
    // pnpm/setup's `version: 8`: below 9 when no version of 9 or later satisfies it.
    auto range = semver::Range::parse(p.version, {true, false});
    return range && !range->intersects(*semver::Range::parse(">=9.0.0-0", {true, false}));
  });
}

std::string npm_config_registry(const std::vector<plugins::RuntimePin>& pins,
                                const std::string& file, const std::string& http) {
  return !http.empty() && pins_pnpm_before_9(pins) ? http : file;
}

}  // namespace reviewer::deps

#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/semver/range.h"
#include "core/semver/version.h"
#include "core/util/result.h"

// node-semver's top-level functions over strings, with its exact semantics: an invalid range or
// version makes `satisfies` false (never an error), `valid`/`valid_range` nullopt.
namespace reviewer::semver {

// `semver.satisfies(version, range, options)`.
bool satisfies(std::string_view version, std::string_view range, const Options& options = {});

// `semver.valid(version, options)`: the normalised version string, or nullopt.
std::optional<std::string> valid(std::string_view version, const Options& options = {});

// `semver.validRange(range, options)`: the normalised range ("*" for any), or nullopt.
std::optional<std::string> valid_range(std::string_view range, const Options& options = {});

// Which side of a range `outside` looks at.
enum class Side { kAbove, kBelow };

// `semver.outside(version, range, hilo, options)`: whether `version` lies entirely above
// (kAbove, `gtr`) or below (kBelow, `ltr`) every version the range admits. Where node-semver
// throws (invalid version or range) this returns the parse error.
util::Result<bool> outside(std::string_view version, std::string_view range, Side side,
                           const Options& options = {});
inline util::Result<bool> gtr(std::string_view version, std::string_view range,
                              const Options& options = {}) {
  return outside(version, range, Side::kAbove, options);
}
inline util::Result<bool> ltr(std::string_view version, std::string_view range,
                              const Options& options = {}) {
  return outside(version, range, Side::kBelow, options);
}

// `semver.compare(a, b, options)`: -1, 0 or 1, or the parse error of either version.
util::Result<int> compare(std::string_view a, std::string_view b, const Options& options = {});

}  // namespace reviewer::semver

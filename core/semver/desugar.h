#pragma once

#include <string>
#include <string_view>

#include "core/semver/version.h"

// The string rewrites node-semver's classes/range.js applies to one `||` part before it splits
// it into comparators. Each function is the namesake in range.js, with the same output.
namespace reviewer::semver::detail {

// `1.2.3 - 2.3.4` -> `>=1.2.3 <=2.3.4` (the whole part, when it is a hyphen range).
std::string replace_hyphen(const std::string& range, const Options& options);

// `> 1.2.3`, `~ 1.2`, `^ 1` -> `>1.2.3`, `~1.2`, `^1`.
std::string trim_operator_whitespace(const std::string& range);

// parseComparator: strips the first build metadata, then replaces carets, tildes, x-ranges
// and stars in one space-separated piece; the result may hold several comparators.
std::string desugar_comparator(const std::string& comp, const Options& options);

// replaceGTE0: `>=0.0.0` (`>=0.0.0-0` with include_prerelease) becomes "" (any).
std::string replace_gte0(std::string_view comp, const Options& options);

}  // namespace reviewer::semver::detail

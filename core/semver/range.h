#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/semver/version.h"
#include "core/util/result.h"

namespace reviewer::semver {

// The longest range string accepted. node-semver has no bound; ours keeps the backtracking
// scanners' work (and stack depth) small. Real ranges are a few dozen characters.
inline constexpr std::size_t kMaxRangeLength = 1024;

// One comparator of a range: an operator ("", ">", ">=", "<", "<=") and a version, or ANY
// (no version: matches everything). `value` is node-semver's `Comparator.value`.
struct Comparator {
  std::string op;
  std::optional<Version> semver;  // nullopt is node-semver's Comparator.ANY
  std::string value;

  // Parses one comparator such as ">=1.2.3" (node-semver's Comparator constructor); errors
  // have code "invalid-range".
  static util::Result<Comparator> parse(std::string_view text, const Options& options);

  // Whether `version` satisfies this comparator alone (no prerelease rule).
  bool test(const Version& version) const;

  // node-semver `Comparator.intersects`.
  bool intersects(const Comparator& other, const Options& options) const;
};

// A parsed range: a union (`||`) of comparator sets, each an intersection. Parsing follows
// node-semver 7.8's classes/range.js step for step (hyphen ranges, comparator/tilde/caret
// whitespace trimming, carets, tildes, x-ranges, stars, `>=0.0.0`, loose filtering, null-set
// and any-set simplification).
class Range {
 public:
  // Errors have code "invalid-range" and say which part is wrong.
  static util::Result<Range> parse(std::string_view text, const Options& options = {});

  // node-semver `Range.test`, including the prerelease exclusion rule: a prerelease version
  // matches a set only if some comparator of that set has a prerelease on the same
  // major.minor.patch, unless `include_prerelease` is set.
  bool test(const Version& version) const;
  // Parses `version` with this range's options first; an invalid version is false.
  bool test(std::string_view version) const;

  // node-semver `Range.intersects`: whether some version could satisfy both ranges.
  bool intersects(const Range& other) const;

  // node-semver `range.range`: sets joined by "||", comparators by one space ("" for any).
  const std::string& to_string() const { return formatted_; }
  const std::vector<std::vector<Comparator>>& sets() const { return sets_; }
  const Options& options() const { return options_; }

 private:
  Options options_;
  std::vector<std::vector<Comparator>> sets_;
  std::string formatted_;
};

}  // namespace reviewer::semver

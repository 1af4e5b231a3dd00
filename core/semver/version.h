#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace reviewer::semver {

// The longest version string node-semver accepts (MAX_LENGTH).
inline constexpr std::size_t kMaxVersionLength = 256;
// The largest major, minor or patch (Number.MAX_SAFE_INTEGER, 2^53-1).
inline constexpr std::uint64_t kMaxSafeInteger = 9007199254740991ULL;

// node-semver's parse options: `loose` admits forms like `=v1.2.3` and `1.2.3beta`;
// `include_prerelease` lets ranges match prerelease versions on any tuple.
struct Options {
  bool loose = false;
  bool include_prerelease = false;
};

// One dot-separated prerelease identifier. `is_number` is true where node-semver stores a
// JavaScript number (all digits and below 2^53-1); `text` is the identifier as printed.
struct PrereleaseId {
  std::string text;
  bool is_number = false;

  friend bool operator==(const PrereleaseId&, const PrereleaseId&) = default;
};

// A parsed semantic version, as node-semver's SemVer class holds it.
struct Version {
  std::uint64_t major = 0;
  std::uint64_t minor = 0;
  std::uint64_t patch = 0;
  std::vector<PrereleaseId> prerelease;
  std::vector<std::string> build;

  // "major.minor.patch[-prerelease]": node-semver's `version` field (build left out).
  std::string to_string() const;
};

// Parses `text` like `new SemVer(text, {loose})`: surrounding JavaScript whitespace is trimmed,
// a leading `v` is accepted (and in loose mode any run of `v`, `=` and whitespace). Errors
// (code "invalid-version") say what is wrong: too long, not a version, component too big.
util::Result<Version> parse_version(std::string_view text, bool loose = false);

// node-semver `clean`: trims, drops leading `=`/`v` characters, parses; the version string or
// an error.
util::Result<std::string> clean_version(std::string_view text, const Options& options);

// Precedence per node-semver `compare`: -1, 0 or 1; build metadata is ignored.
int compare(const Version& a, const Version& b);
// node-semver `compareIdentifiers` on two prerelease identifiers.
int compare_identifiers(const PrereleaseId& a, const PrereleaseId& b);

inline bool operator==(const Version& a, const Version& b) { return compare(a, b) == 0; }
inline bool operator<(const Version& a, const Version& b) { return compare(a, b) < 0; }
inline bool operator>(const Version& a, const Version& b) { return compare(a, b) > 0; }
inline bool operator<=(const Version& a, const Version& b) { return compare(a, b) <= 0; }
inline bool operator>=(const Version& a, const Version& b) { return compare(a, b) >= 0; }

}  // namespace reviewer::semver

#include "core/semver/version.h"

#include <charconv>
#include <cstdlib>

#include "core/semver/js_text.h"
#include "core/semver/scan.h"
#include "core/util/text.h"

namespace reviewer::semver {
namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// `+digits` as JavaScript computes it, when the value is a safe integer: at most 16
// significant digits and not above 2^53-1. Leading zeros (loose mode) are dropped.
std::optional<std::uint64_t> safe_integer(std::string_view digits) {
  const std::size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) {
    return 0;
  }
  digits.remove_prefix(first);
  if (digits.size() > 16) {
    return std::nullopt;
  }
  std::uint64_t v = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (v > kMaxSafeInteger) {
    return std::nullopt;
  }
  return v;
}

// The error paths are cold: kept out of line, the comparisons satisfies() runs in a loop stay
// laid out together (bench_resolve's SatisfiesParsed measured the difference).
[[gnu::cold]] util::Refusal invalid(std::string message) {
  return util::refusal("invalid-version", std::move(message));
}

[[gnu::cold]] std::string quoted(std::string_view s) { return util::quote(s, '"'); }

}  // namespace

std::string Version::to_string() const {
  std::string out =
      std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  for (std::size_t i = 0; i < prerelease.size(); ++i) {
    out += i == 0 ? "-" : ".";
    out += prerelease[i].text;
  }
  return out;
}

util::Result<Version> parse_version(std::string_view text, bool loose) {
  if (js::utf16_length(text) > kMaxVersionLength) {
    return invalid("version is longer than " + std::to_string(kMaxVersionLength) + " characters");
  }
  const std::string_view trimmed = js::trim(text);
  const auto m = detail::match_version(trimmed, loose);
  if (!m) {
    return invalid(quoted(text) + " is not a valid " + (loose ? "loose " : "") +
                   "semantic version (expected MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD])");
  }
  Version v;
  const char* names[] = {"major", "minor", "patch"};
  const std::string_view digits[] = {*m->major, *m->minor, *m->patch};
  std::uint64_t* fields[] = {&v.major, &v.minor, &v.patch};
  for (int i = 0; i < 3; ++i) {
    const auto value = safe_integer(digits[i]);
    if (!value) {
      return invalid(quoted(text) + ": " + names[i] + " version " + std::string(digits[i]) +
                     " is larger than " + std::to_string(kMaxSafeInteger));
    }
    *fields[i] = *value;
  }
  if (m->prerelease && !m->prerelease->empty()) {
    for (auto& id : js::split(*m->prerelease, ".")) {
      // node-semver turns all-digit identifiers below MAX_SAFE_INTEGER into numbers.
      const auto value = all_digits(id) ? safe_integer(id) : std::nullopt;
      if (value && *value < kMaxSafeInteger) {
        v.prerelease.push_back({std::to_string(*value), true});
      } else {
        v.prerelease.push_back({std::move(id), false});
      }
    }
  }
  if (m->build && !m->build->empty()) {
    v.build = js::split(*m->build, ".");
  }
  return v;
}

util::Result<std::string> clean_version(std::string_view text, const Options& options) {
  std::string_view s = js::trim(text);
  s.remove_prefix(std::min(s.find_first_not_of("=v"), s.size()));
  auto v = parse_version(s, options.loose);
  if (!v) {
    return v.error();
  }
  return v->to_string();
}

int compare_identifiers(const PrereleaseId& a, const PrereleaseId& b) {
  const bool anum = all_digits(a.text);
  const bool bnum = all_digits(b.text);
  if (anum && bnum) {
    // JavaScript compares `+a` and `+b` as doubles; strtod rounds the same way.
    const double da = std::strtod(a.text.c_str(), nullptr);
    const double db = std::strtod(b.text.c_str(), nullptr);
    return da == db ? 0 : da < db ? -1 : 1;
  }
  if (a.text == b.text) {
    return 0;
  }
  if (anum) {
    return -1;
  }
  if (bnum) {
    return 1;
  }
  return a.text < b.text ? -1 : 1;
}

int compare(const Version& a, const Version& b) {
  if (a.major != b.major) {
    return a.major < b.major ? -1 : 1;
  }
  if (a.minor != b.minor) {
    return a.minor < b.minor ? -1 : 1;
  }
  if (a.patch != b.patch) {
    return a.patch < b.patch ? -1 : 1;
  }
  // Having no prerelease ranks above having one.
  if (a.prerelease.empty() || b.prerelease.empty()) {
    return a.prerelease.empty() == b.prerelease.empty() ? 0 : a.prerelease.empty() ? 1 : -1;
  }
  for (std::size_t i = 0;; ++i) {
    const bool a_end = i >= a.prerelease.size();
    const bool b_end = i >= b.prerelease.size();
    if (a_end && b_end) {
      return 0;
    }
    if (b_end) {
      return 1;
    }
    if (a_end) {
      return -1;
    }
    const auto& x = a.prerelease[i];
    const auto& y = b.prerelease[i];
    if (x.text == y.text && x.is_number == y.is_number) {
      continue;
    }
    return compare_identifiers(x, y);
  }
}

}  // namespace reviewer::semver

#pragma once

#include <regex>

// node-semver's regular expressions (internal/re.js), rebuilt from the same token sources and
// made "safe" the same way (makeSafeRegex bounds `\s`, `\d` and identifier repetitions), so
// every parse step matches exactly what node-semver 7.8 matches. std::regex's ECMAScript
// grammar is the JavaScript one, with ordered alternation and backtracking.
namespace reviewer::semver::detail {

struct SemverRegexes {
  std::regex full;              // FULL: ^v?M.m.p[-pre][+build]$
  std::regex loose;             // LOOSE
  std::regex xrange;            // XRANGE
  std::regex xrange_loose;      // XRANGELOOSE
  std::regex tilde;             // TILDE
  std::regex tilde_loose;       // TILDELOOSE
  std::regex caret;             // CARET
  std::regex caret_loose;       // CARETLOOSE
  std::regex comparator;        // COMPARATOR
  std::regex comparator_loose;  // COMPARATORLOOSE
  std::regex comparator_trim;   // COMPARATORTRIM (global), replaced by "$1$2$3"
  std::regex tilde_trim;        // TILDETRIM (global), replaced by "$1~"
  std::regex caret_trim;        // CARETTRIM (global), replaced by "$1^"
  std::regex hyphen;            // HYPHENRANGE
  std::regex hyphen_loose;      // HYPHENRANGELOOSE
  std::regex star;              // STAR
  std::regex gte0;              // GTE0
  std::regex gte0_pre;          // GTE0PRE
  std::regex build;             // BUILD (safe), first occurrence removed per comparator
  std::regex build_strip;       // BUILD (unbounded, global), removed from each `||` part
};

// Built once, on first use (thread-safe static initialisation). The port used these until
// core/semver/scan.h replaced them; they stay as the oracle scan_test.cpp compares
// the scanners with.
const SemverRegexes& semver_regexes();

}  // namespace reviewer::semver::detail

#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/semver/tokens.h"

// node-semver 7.8's regular expressions (internal/re.js, made safe by makeSafeRegex) as
// hand-written scanners: each function below names the expression it stands for and returns
// what `match` or `replace` returns in JavaScript, with no start-up work (no tables, no regex
// compilation). The scanners are built from the token matchers in semver_tokens.h, which try
// alternatives in JavaScript's backtracking order, so the captures are the ones node-semver
// sees. tests/unit/semver/scan_test.cpp checks every function against the regular
// expressions it replaced.
namespace reviewer::semver::detail {

using tokens::Capture;
using tokens::Parts;

// FULL `^FULLPLAIN$` (or LOOSE `^LOOSEPLAIN$`): major, minor, patch, prerelease, build.
std::optional<Parts> match_version(std::string_view s, bool loose);

// XRANGE `^GTLT\s*XRANGEPLAIN$` (or XRANGELOOSE).
struct XRangeMatch {
  std::string_view gtlt;
  Parts parts;
};
std::optional<XRangeMatch> match_xrange(std::string_view s, bool loose);

// TILDE `^LONETILDE XRANGEPLAIN$` with LONETILDE `(?:~>?)` (or TILDELOOSE).
std::optional<Parts> match_tilde(std::string_view s, bool loose);

// CARET `^LONECARET XRANGEPLAIN$` with LONECARET `(?:\^)` (or CARETLOOSE).
std::optional<Parts> match_caret(std::string_view s, bool loose);

// COMPARATOR `^GTLT\s*(FULLPLAIN)$|^$` (or COMPARATORLOOSE with LOOSEPLAIN). Both groups are
// unset when the text is empty (the `^$` alternative).
struct ComparatorMatch {
  Capture gtlt;
  Capture version;
};
std::optional<ComparatorMatch> match_comparator(std::string_view s, bool loose);

// HYPHENRANGE `^\s*(XRANGEPLAIN)\s+-\s+(XRANGEPLAIN)\s*$` (or HYPHENRANGELOOSE).
struct HyphenMatch {
  std::string_view from;
  Parts from_parts;
  std::string_view to;
  Parts to_parts;
};
std::optional<HyphenMatch> match_hyphen(std::string_view s, bool loose);

// s.replace(COMPARATORTRIM, '$1$2$3'), COMPARATORTRIM being the global
// `(\s*)GTLT\s*(LOOSEPLAIN|XRANGEPLAIN)`: the space between an operator and its version goes.
std::string trim_comparator_spaces(std::string_view s);

// s.replace(TILDETRIM, '$1~'), TILDETRIM being the global `(\s*)LONETILDE\s+`.
std::string trim_tilde_spaces(std::string_view s);

// s.replace(CARETTRIM, '$1^'), CARETTRIM being the global `(\s*)LONECARET\s+`.
std::string trim_caret_spaces(std::string_view s);

// s.replace(BUILD, ''): the first build metadata goes (safe BUILD, identifiers of <= 250).
std::string remove_first_build(std::string_view s);

// The port's removal of every build metadata from a `||` part: the global, unbounded BUILD.
std::string remove_all_builds(std::string_view s);

// s.replace(STAR, ''), STAR being `(<|>)?=?\s*\*`: the first star and its operator go.
std::string remove_first_star(std::string_view s);

// GTE0 `^\s*>=\s*0\.0\.0\s*$`, or GTE0PRE `^\s*>=\s*0\.0\.0-0\s*$` with `include_prerelease`.
bool is_gte0(std::string_view s, bool include_prerelease);

}  // namespace reviewer::semver::detail

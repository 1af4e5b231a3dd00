#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

// node-semver 7.8's tokens (internal/re.js), one matcher per token, written so each can be read
// against its `createToken` line. A matcher takes the text, a position and a continuation `k`
// (the rest of the expression): it tries its alternatives and repetition counts in the order
// JavaScript's backtracking tries them and returns the first `k(end)` that succeeds. That keeps
// the captures of the first match JavaScript would find, with nothing built at start-up.
//
// The bounds are makeSafeRegex's: `\s*` is `\s{0,1}`, `\s+` is `\s{1,1}`, `\d` repeats at most
// MAX_LENGTH (256) times and `[a-zA-Z0-9-]` at most MAX_SAFE_BUILD_LENGTH (250) times.
// `\s` is what the regular expressions matched in the port: ASCII white space only (the range
// text has had JavaScript's white space collapsed to single spaces before they see it).
namespace reviewer::semver::detail::tokens {

using std::string_view;
using Capture = std::optional<string_view>;  // nullopt: the group did not take part

inline constexpr std::size_t kMaxDigits = 256;     // MAX_LENGTH
inline constexpr std::size_t kMaxLetterRun = 250;  // MAX_SAFE_BUILD_LENGTH
inline constexpr std::size_t kUnbounded = ~std::size_t{0};

inline bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_letter_dash(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}
// LETTERDASHNUMBER `[a-zA-Z0-9-]`
inline bool is_letter_dash_number(char c) { return is_letter_dash(c) || is_digit(c); }
inline bool is_v_eq_space(char c) { return c == 'v' || c == '=' || is_space(c); }

inline bool at(string_view s, std::size_t i, char c) { return i < s.size() && s[i] == c; }

// `[class]{min,max}`, greedy: the longest run first, then one shorter at a time.
template <class Pred, class K>
bool repeat(string_view s, std::size_t i, std::size_t min, std::size_t max, Pred in_class, K&& k) {
  std::size_t n = 0;
  while (i + n < s.size() && n < max && in_class(s[i + n])) {
    ++n;
  }
  for (std::size_t len = n + 1; len-- > min;) {
    if (k(i + len)) {
      return true;
    }
  }
  return false;
}

// `c?`, greedy.
template <class K>
bool optional_char(string_view s, std::size_t i, char c, K&& k) {
  return (at(s, i, c) && k(i + 1)) || k(i);
}

// `\s*` made safe: `\s{0,1}`.
template <class K>
bool optional_space(string_view s, std::size_t i, K&& k) {
  return (i < s.size() && is_space(s[i]) && k(i + 1)) || k(i);
}

// `\s+` made safe: `\s{1,1}`.
template <class K>
bool one_space(string_view s, std::size_t i, K&& k) {
  return i < s.size() && is_space(s[i]) && k(i + 1);
}

// NUMERICIDENTIFIER `0|[1-9]\d*`
template <class K>
bool numeric_identifier(string_view s, std::size_t i, K&& k) {
  if (at(s, i, '0') && k(i + 1)) {
    return true;
  }
  return i < s.size() && s[i] >= '1' && s[i] <= '9' && repeat(s, i + 1, 0, kMaxDigits, is_digit, k);
}

// NUMERICIDENTIFIERLOOSE `\d+`
template <class K>
bool numeric_identifier_loose(string_view s, std::size_t i, K&& k) {
  return repeat(s, i, 1, kMaxDigits, is_digit, k);
}

// NONNUMERICIDENTIFIER `\d*[a-zA-Z-]${LETTERDASHNUMBER}*`
template <class K>
bool nonnumeric_identifier(string_view s, std::size_t i, K&& k) {
  return repeat(s, i, 0, kMaxDigits, is_digit, [&](std::size_t j) {
    return j < s.size() && is_letter_dash(s[j]) &&
           repeat(s, j + 1, 0, kMaxLetterRun, is_letter_dash_number, k);
  });
}

// PRERELEASEIDENTIFIER `(?:NONNUMERICIDENTIFIER|NUMERICIDENTIFIER)` and its LOOSE twin, which
// ends in NUMERICIDENTIFIERLOOSE.
template <class K>
bool prerelease_identifier(string_view s, std::size_t i, bool loose, K&& k) {
  return nonnumeric_identifier(s, i, k) ||
         (loose ? numeric_identifier_loose(s, i, k) : numeric_identifier(s, i, k));
}

// The `(?:\.ID)*` tail of PRERELEASE and BUILD, greedy.
template <class Id, class K>
bool more_dotted(string_view s, std::size_t i, const Id& id, K&& k) {
  if (at(s, i, '.') && id(s, i + 1, [&](std::size_t e) { return more_dotted(s, e, id, k); })) {
    return true;
  }
  return k(i);
}

// PRERELEASE `(?:-(ID(?:\.ID)*))` and PRERELEASELOOSE `(?:-?(ID(?:\.ID)*))`; `cap` is the group.
template <class K>
bool prerelease(string_view s, std::size_t i, bool loose, Capture& cap, K&& k) {
  const auto id = [loose](string_view t, std::size_t j, auto&& next) {
    return prerelease_identifier(t, j, loose, next);
  };
  const auto body = [&](std::size_t start) {
    return id(s, start, [&](std::size_t e) {
      return more_dotted(s, e, id, [&](std::size_t end) {
        cap = s.substr(start, end - start);
        return k(end);
      });
    });
  };
  if (at(s, i, '-') && body(i + 1)) {
    return true;
  }
  return loose && body(i);
}

// `(?:PRERELEASE)?`: the group is unset when skipped.
template <class K>
bool optional_prerelease(string_view s, std::size_t i, bool loose, Capture& cap, K&& k) {
  if (prerelease(s, i, loose, cap, k)) {
    return true;
  }
  cap.reset();
  return k(i);
}

// BUILD `(?:\+(BUILDIDENTIFIER(?:\.BUILDIDENTIFIER)*))` with BUILDIDENTIFIER
// `${LETTERDASHNUMBER}+`; `max_run` is 250 (safe) or kUnbounded (the port's build strip).
template <class K>
bool build(string_view s, std::size_t i, std::size_t max_run, Capture& cap, K&& k) {
  const auto id = [max_run](string_view t, std::size_t j, auto&& next) {
    return repeat(t, j, 1, max_run, is_letter_dash_number, next);
  };
  return at(s, i, '+') && id(s, i + 1, [&](std::size_t e) {
           return more_dotted(s, e, id, [&](std::size_t end) {
             cap = s.substr(i + 1, end - i - 1);
             return k(end);
           });
         });
}

// `BUILD?`
template <class K>
bool optional_build(string_view s, std::size_t i, Capture& cap, K&& k) {
  if (build(s, i, kMaxLetterRun, cap, k)) {
    return true;
  }
  cap.reset();
  return k(i);
}

// The groups of MAINVERSION, PRERELEASE and BUILD, and of XRANGEPLAIN's five.
struct Parts {
  Capture major, minor, patch, prerelease, build;
};

// FULLPLAIN `v?${MAINVERSION}${PRERELEASE}?${BUILD}?` with MAINVERSION `(N)\.(N)\.(N)`, and
// LOOSEPLAIN `[v=\s]*${MAINVERSIONLOOSE}${PRERELEASELOOSE}?${BUILD}?`.
template <class K>
bool plain_version(string_view s, std::size_t i, bool loose, Parts& p, K&& k) {
  const auto num = [&](std::size_t j, auto&& next) {
    return loose ? numeric_identifier_loose(s, j, next) : numeric_identifier(s, j, next);
  };
  const auto main_version = [&](std::size_t a) {
    return num(a, [&](std::size_t b) {
      p.major = s.substr(a, b - a);
      return at(s, b, '.') && num(b + 1, [&](std::size_t c) {
               p.minor = s.substr(b + 1, c - b - 1);
               return at(s, c, '.') && num(c + 1, [&](std::size_t d) {
                        p.patch = s.substr(c + 1, d - c - 1);
                        return optional_prerelease(s, d, loose, p.prerelease, [&](std::size_t e) {
                          return optional_build(s, e, p.build, k);
                        });
                      });
             });
    });
  };
  if (loose) {
    return repeat(s, i, 0, kUnbounded, is_v_eq_space, main_version);
  }
  return optional_char(s, i, 'v', main_version);
}

// XRANGEIDENTIFIER `${NUMERICIDENTIFIER}|x|X|\*` and XRANGEIDENTIFIERLOOSE (`\d+|x|X|\*`).
template <class K>
bool xrange_identifier(string_view s, std::size_t i, bool loose, K&& k) {
  if (loose ? numeric_identifier_loose(s, i, k) : numeric_identifier(s, i, k)) {
    return true;
  }
  return i < s.size() && (s[i] == 'x' || s[i] == 'X' || s[i] == '*') && k(i + 1);
}

// XRANGEPLAIN `[v=\s]*(XID)(?:\.(XID)(?:\.(XID)(?:${PRERELEASE})?${BUILD}?)?)?` and
// XRANGEPLAINLOOSE (the LOOSE identifiers and PRERELEASELOOSE).
template <class K>
bool xrange_plain(string_view s, std::size_t i, bool loose, Parts& p, K&& k) {
  return repeat(s, i, 0, kUnbounded, is_v_eq_space, [&](std::size_t a) {
    return xrange_identifier(s, a, loose, [&](std::size_t b) {
      p.major = s.substr(a, b - a);
      const bool minor_taken =
          at(s, b, '.') && xrange_identifier(s, b + 1, loose, [&](std::size_t c) {
            p.minor = s.substr(b + 1, c - b - 1);
            const bool patch_taken =
                at(s, c, '.') && xrange_identifier(s, c + 1, loose, [&](std::size_t d) {
                  p.patch = s.substr(c + 1, d - c - 1);
                  return optional_prerelease(s, d, loose, p.prerelease, [&](std::size_t e) {
                    return optional_build(s, e, p.build, k);
                  });
                });
            if (patch_taken) {
              return true;
            }
            p.patch.reset();
            p.prerelease.reset();
            p.build.reset();
            return k(c);
          });
      if (minor_taken) {
        return true;
      }
      p.minor.reset();
      p.patch.reset();
      p.prerelease.reset();
      p.build.reset();
      return k(b);
    });
  });
}

// GTLT `((?:<|>)?=?)`
template <class K>
bool gtlt(string_view s, std::size_t i, K&& k) {
  const auto equals = [&](std::size_t j) { return optional_char(s, j, '=', k); };
  return (i < s.size() && (s[i] == '<' || s[i] == '>') && equals(i + 1)) || equals(i);
}

}  // namespace reviewer::semver::detail::tokens

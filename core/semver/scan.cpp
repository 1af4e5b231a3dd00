#include "core/semver/scan.h"

namespace reviewer::semver::detail {
namespace {

using namespace tokens;  // NOLINT(google-build-using-namespace): the token vocabulary

// Where a match of an unanchored expression starts and ends; `keep` is the text its
// replacement writes instead.
struct Found {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string keep;
};

// `s.replace(re, ...)`: tries `match_at` at each position from the left, as a regular
// expression search does; `global` continues after each match, as the `g` flag does. No
// expression here can match empty text, so a failed position just copies one character.
template <class MatchAt>
std::string replace(std::string_view s, bool global, MatchAt match_at) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  bool replaced = false;
  while (i < s.size()) {
    Found f;
    if ((global || !replaced) && match_at(i, f)) {
      out += f.keep;
      i = f.end;
      replaced = true;
    } else {
      out += s[i++];
    }
  }
  return out;
}

const auto kAtEnd = [](std::string_view s) { return [s](std::size_t e) { return e == s.size(); }; };

}  // namespace

std::optional<Parts> match_version(std::string_view s, bool loose) {
  Parts p;
  if (plain_version(s, 0, loose, p, kAtEnd(s))) {
    return p;
  }
  return std::nullopt;
}

std::optional<XRangeMatch> match_xrange(std::string_view s, bool loose) {
  XRangeMatch m;
  const bool ok = gtlt(s, 0, [&](std::size_t a) {
    m.gtlt = s.substr(0, a);
    return optional_space(
        s, a, [&](std::size_t b) { return xrange_plain(s, b, loose, m.parts, kAtEnd(s)); });
  });
  return ok ? std::optional(m) : std::nullopt;
}

std::optional<Parts> match_tilde(std::string_view s, bool loose) {
  Parts p;
  const bool ok = at(s, 0, '~') && optional_char(s, 1, '>', [&](std::size_t a) {
                    return xrange_plain(s, a, loose, p, kAtEnd(s));
                  });
  return ok ? std::optional(p) : std::nullopt;
}

std::optional<Parts> match_caret(std::string_view s, bool loose) {
  Parts p;
  const bool ok = at(s, 0, '^') && xrange_plain(s, 1, loose, p, kAtEnd(s));
  return ok ? std::optional(p) : std::nullopt;
}

std::optional<ComparatorMatch> match_comparator(std::string_view s, bool loose) {
  ComparatorMatch m;
  Parts unused;
  const bool ok = gtlt(s, 0, [&](std::size_t a) {
    m.gtlt = s.substr(0, a);
    return optional_space(s, a, [&](std::size_t b) {
      return plain_version(s, b, loose, unused, [&](std::size_t e) {
        m.version = s.substr(b, e - b);
        return e == s.size();
      });
    });
  });
  if (ok) {
    return m;
  }
  if (s.empty()) {
    return ComparatorMatch{};  // `^$`
  }
  return std::nullopt;
}

std::optional<HyphenMatch> match_hyphen(std::string_view s, bool loose) {
  HyphenMatch m;
  const bool ok = optional_space(s, 0, [&](std::size_t a) {
    return xrange_plain(s, a, loose, m.from_parts, [&](std::size_t b) {
      m.from = s.substr(a, b - a);
      return one_space(s, b, [&](std::size_t c) {
        return at(s, c, '-') && one_space(s, c + 1, [&](std::size_t d) {
                 return xrange_plain(s, d, loose, m.to_parts, [&](std::size_t e) {
                   m.to = s.substr(d, e - d);
                   return optional_space(s, e, kAtEnd(s));
                 });
               });
      });
    });
  });
  return ok ? std::optional(m) : std::nullopt;
}

std::string trim_comparator_spaces(std::string_view s) {
  return replace(s, true, [s](std::size_t i, Found& f) {
    Parts unused;
    std::size_t operator_end = 0;
    std::size_t version_begin = 0;
    const auto version_end = [&](std::size_t e) {
      f.end = e;
      return true;
    };
    const bool ok = optional_space(s, i, [&](std::size_t a) {
      return gtlt(s, a, [&](std::size_t b) {
        operator_end = b;
        return optional_space(s, b, [&](std::size_t c) {
          version_begin = c;
          return plain_version(s, c, true, unused, version_end) ||
                 xrange_plain(s, c, false, unused, version_end);
        });
      });
    });
    if (ok) {  // '$1$2$3': everything but the space between $2 and $3
      f.keep = std::string(s.substr(i, operator_end - i));
      f.keep += s.substr(version_begin, f.end - version_begin);
    }
    return ok;
  });
}

namespace {

// `(\s*)SIGIL\s+` replaced by '$1' + sigil; a tilde's `>` is dropped with the space.
std::string trim_sigil_spaces(std::string_view s, char sigil) {
  return replace(s, true, [s, sigil](std::size_t i, Found& f) {
    std::size_t space_end = 0;
    const auto after_sigil = [&](std::size_t b) {
      return one_space(s, b, [&](std::size_t c) {
        f.end = c;
        return true;
      });
    };
    const bool ok = optional_space(s, i, [&](std::size_t a) {
      space_end = a;
      if (!at(s, a, sigil)) {
        return false;
      }
      return sigil == '~' ? optional_char(s, a + 1, '>', after_sigil) : after_sigil(a + 1);
    });
    if (ok) {
      f.keep = std::string(s.substr(i, space_end - i)) + sigil;
    }
    return ok;
  });
}

std::string remove_builds(std::string_view s, bool global, std::size_t max_run) {
  return replace(s, global, [s, max_run](std::size_t i, Found& f) {
    Capture unused;
    return build(s, i, max_run, unused, [&](std::size_t e) {
      f.end = e;
      return true;
    });
  });
}

}  // namespace

std::string trim_tilde_spaces(std::string_view s) { return trim_sigil_spaces(s, '~'); }

std::string trim_caret_spaces(std::string_view s) { return trim_sigil_spaces(s, '^'); }

std::string remove_first_build(std::string_view s) {
  return remove_builds(s, false, kMaxLetterRun);
}

std::string remove_all_builds(std::string_view s) { return remove_builds(s, true, kUnbounded); }

std::string remove_first_star(std::string_view s) {
  return replace(s, false, [s](std::size_t i, Found& f) {
    const auto star = [&](std::size_t b) {
      return optional_space(s, b, [&](std::size_t c) {
        f.end = c + 1;
        return at(s, c, '*');
      });
    };
    const auto equals = [&](std::size_t a) { return optional_char(s, a, '=', star); };
    return (i < s.size() && (s[i] == '<' || s[i] == '>') && equals(i + 1)) || equals(i);
  });
}

bool is_gte0(std::string_view s, bool include_prerelease) {
  const std::string_view zero = include_prerelease ? "0.0.0-0" : "0.0.0";
  return optional_space(s, 0, [&](std::size_t a) {
    return s.substr(a, 2) == ">=" && optional_space(s, a + 2, [&](std::size_t b) {
             return s.substr(b, zero.size()) == zero &&
                    optional_space(s, b + zero.size(), kAtEnd(s));
           });
  });
}

}  // namespace reviewer::semver::detail

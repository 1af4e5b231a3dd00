#include "core/resolve/semver_desugar.h"

#include <regex>

#include "core/resolve/js_text.h"
#include "core/resolve/semver_regex.h"

namespace reviewer::resolve::detail {
namespace {

using Groups = std::smatch;

// A capture as JavaScript hands it to a replace callback: "" for an unmatched group.
std::string group(const Groups& m, int i) { return m[i].matched ? m[i].str() : std::string(); }

// isX: an absent, empty, x, X or * component.
bool is_x(const Groups& m, int i) {
  if (!m[i].matched || m.length(i) == 0) {
    return true;
  }
  const std::string s = m[i].str();
  return s == "x" || s == "X" || s == "*";
}
bool is_x(const std::string& s) { return s.empty() || s == "x" || s == "X" || s == "*"; }

// JavaScript truthiness of a captured string.
bool truthy(const Groups& m, int i) { return m[i].matched && m.length(i) > 0; }

// `s.replace(re, fn)` for an anchored, non-global `re`: at most one match, spliced in.
template <class Fn>
std::string replace_first(const std::string& s, const std::regex& re, Fn fn) {
  Groups m;
  if (!std::regex_search(s, m, re)) {
    return s;
  }
  return m.prefix().str() + fn(m) + m.suffix().str();
}

std::string replace_caret(const std::string& comp, const SemverOptions& options) {
  const auto& re = semver_regexes();
  const std::string z = options.include_prerelease ? "-0" : "";
  return replace_first(comp, options.loose ? re.caret_loose : re.caret, [&](const Groups& g) {
    const std::string M = group(g, 1), m = group(g, 2), p = group(g, 3), pr = group(g, 4);
    if (is_x(g, 1)) {
      return std::string();
    }
    if (is_x(g, 2)) {
      return ">=" + M + ".0.0" + z + " <" + js::increment(M) + ".0.0-0";
    }
    if (is_x(g, 3)) {
      if (M == "0") {
        return ">=" + M + "." + m + ".0" + z + " <" + M + "." + js::increment(m) + ".0-0";
      }
      return ">=" + M + "." + m + ".0" + z + " <" + js::increment(M) + ".0.0-0";
    }
    const std::string from = ">=" + M + "." + m + "." + p + (truthy(g, 4) ? "-" + pr : "");
    if (M == "0") {
      if (m == "0") {
        return from + " <" + M + "." + m + "." + js::increment(p) + "-0";
      }
      return from + " <" + M + "." + js::increment(m) + ".0-0";
    }
    return from + " <" + js::increment(M) + ".0.0-0";
  });
}

std::string replace_tilde(const std::string& comp, const SemverOptions& options) {
  const auto& re = semver_regexes();
  const std::string z = options.include_prerelease ? "-0" : "";
  return replace_first(comp, options.loose ? re.tilde_loose : re.tilde, [&](const Groups& g) {
    const std::string M = group(g, 1), m = group(g, 2), p = group(g, 3), pr = group(g, 4);
    if (is_x(g, 1)) {
      return std::string();
    }
    if (is_x(g, 2)) {
      return ">=" + M + ".0.0" + z + " <" + js::increment(M) + ".0.0-0";
    }
    if (is_x(g, 3)) {
      return ">=" + M + "." + m + ".0" + z + " <" + M + "." + js::increment(m) + ".0-0";
    }
    const std::string from = ">=" + M + "." + m + "." + p + (truthy(g, 4) ? "-" + pr : "");
    return from + " <" + M + "." + js::increment(m) + ".0-0";
  });
}

std::string replace_xrange(std::string_view piece, const SemverOptions& options) {
  const std::string comp(js::trim(piece));
  const auto& re = semver_regexes();
  return replace_first(comp, options.loose ? re.xrange_loose : re.xrange, [&](const Groups& g) {
    std::string gtlt = group(g, 1), M = group(g, 2), m = group(g, 3), p = group(g, 4);
    // invalidXRangeOrder: `x.1`, `1.x.2` stay as written (and fail as comparators later).
    if ((is_x(g, 2) && !is_x(g, 3)) || (is_x(g, 3) && truthy(g, 4) && !is_x(g, 4))) {
      return comp;
    }
    const bool xM = is_x(M);
    const bool xm = xM || is_x(m);
    const bool xp = xm || is_x(p);
    if (gtlt == "=" && xp) {
      gtlt = "";
    }
    std::string pr = options.include_prerelease ? "-0" : "";
    if (xM) {
      return std::string(gtlt == ">" || gtlt == "<" ? "<0.0.0-0" : "*");
    }
    if (!gtlt.empty() && xp) {
      if (xm) {
        m = "0";
      }
      p = "0";
      if (gtlt == ">") {
        gtlt = ">=";
        if (xm) {
          M = js::increment(M);
          m = "0";
        } else {
          m = js::increment(m);
        }
        p = "0";
      } else if (gtlt == "<=") {
        gtlt = "<";
        if (xm) {
          M = js::increment(M);
        } else {
          m = js::increment(m);
        }
      }
      if (gtlt == "<") {
        pr = "-0";
      }
      return gtlt + M + "." + m + "." + p + pr;
    }
    if (xm) {
      return ">=" + M + ".0.0" + pr + " <" + js::increment(M) + ".0.0-0";
    }
    if (xp) {
      return ">=" + M + "." + m + ".0" + pr + " <" + M + "." + js::increment(m) + ".0-0";
    }
    return g[0].str();
  });
}

// `comp.trim().split(/\s+/).map(fn).join(' ')` (or without the trim).
template <class Fn>
std::string map_pieces(std::string_view comp, Fn fn) {
  std::vector<std::string> pieces = js::split_whitespace(comp);
  for (auto& piece : pieces) {
    piece = fn(piece);
  }
  return js::join(pieces, " ");
}

}  // namespace

std::string replace_hyphen(const std::string& range, const SemverOptions& options) {
  const auto& re = semver_regexes();
  const bool inc_pr = options.include_prerelease;
  return replace_first(range, options.loose ? re.hyphen_loose : re.hyphen, [&](const Groups& g) {
    // Groups: from=1 fM=2 fm=3 fp=4 fpr=5 fb=6 to=7 tM=8 tm=9 tp=10 tpr=11 tb=12.
    std::string from;
    if (is_x(g, 2)) {
      from = "";
    } else if (is_x(g, 3)) {
      from = ">=" + group(g, 2) + ".0.0" + (inc_pr ? "-0" : "");
    } else if (is_x(g, 4)) {
      from = ">=" + group(g, 2) + "." + group(g, 3) + ".0" + (inc_pr ? "-0" : "");
    } else if (truthy(g, 5)) {
      from = ">=" + group(g, 1);
    } else {
      from = ">=" + group(g, 1) + (inc_pr ? "-0" : "");
    }
    std::string to;
    if (is_x(g, 8)) {
      to = "";
    } else if (is_x(g, 9)) {
      to = "<" + js::increment(group(g, 8)) + ".0.0-0";
    } else if (is_x(g, 10)) {
      to = "<" + group(g, 8) + "." + js::increment(group(g, 9)) + ".0-0";
    } else if (truthy(g, 11)) {
      to = "<=" + group(g, 8) + "." + group(g, 9) + "." + group(g, 10) + "-" + group(g, 11);
    } else if (inc_pr) {
      to = "<" + group(g, 8) + "." + group(g, 9) + "." + js::increment(group(g, 10)) + "-0";
    } else {
      to = "<=" + group(g, 7);
    }
    return std::string(js::trim(from + " " + to));
  });
}

std::string trim_operator_whitespace(const std::string& range) {
  const auto& re = semver_regexes();
  std::string out = std::regex_replace(range, re.comparator_trim, "$1$2$3");
  out = std::regex_replace(out, re.tilde_trim, "$1~");
  return std::regex_replace(out, re.caret_trim, "$1^");
}

std::string desugar_comparator(const std::string& comp, const SemverOptions& options) {
  const auto& re = semver_regexes();
  std::string out = std::regex_replace(comp, re.build, "", std::regex_constants::format_first_only);
  out = map_pieces(js::trim(out), [&](const std::string& c) { return replace_caret(c, options); });
  out = map_pieces(js::trim(out), [&](const std::string& c) { return replace_tilde(c, options); });
  out = map_pieces(out, [&](const std::string& c) { return replace_xrange(c, options); });
  // Stars: looseness is ignored, and only the first one goes (String.replace, non-global).
  return std::regex_replace(std::string(js::trim(out)), re.star, "",
                            std::regex_constants::format_first_only);
}

std::string replace_gte0(std::string_view comp, const SemverOptions& options) {
  const auto& re = semver_regexes();
  return std::regex_replace(std::string(js::trim(comp)),
                            options.include_prerelease ? re.gte0_pre : re.gte0, "");
}

}  // namespace reviewer::resolve::detail

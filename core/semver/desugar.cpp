#include "core/semver/desugar.h"

#include "core/semver/js_text.h"
#include "core/semver/scan.h"

namespace reviewer::semver::detail {
namespace {

// A capture as JavaScript hands it to a replace callback: "" for an unmatched group.
std::string group(const Capture& c) { return c ? std::string(*c) : std::string(); }

// isX: an absent, empty, x, X or * component.
bool is_x_text(std::string_view s) { return s.empty() || s == "x" || s == "X" || s == "*"; }
bool is_x(const Capture& c) { return !c || is_x_text(*c); }

// JavaScript truthiness of a captured string.
bool truthy(const Capture& c) { return c && !c->empty(); }

std::string replace_caret(const std::string& comp, const Options& options) {
  const std::string z = options.include_prerelease ? "-0" : "";
  const auto g = match_caret(comp, options.loose);
  if (!g) {
    return comp;
  }
  const std::string M = group(g->major), m = group(g->minor), p = group(g->patch),
                    pr = group(g->prerelease);
  if (is_x(g->major)) {
    return std::string();
  }
  if (is_x(g->minor)) {
    return ">=" + M + ".0.0" + z + " <" + js::increment(M) + ".0.0-0";
  }
  if (is_x(g->patch)) {
    if (M == "0") {
      return ">=" + M + "." + m + ".0" + z + " <" + M + "." + js::increment(m) + ".0-0";
    }
    return ">=" + M + "." + m + ".0" + z + " <" + js::increment(M) + ".0.0-0";
  }
  const std::string from = ">=" + M + "." + m + "." + p + (truthy(g->prerelease) ? "-" + pr : "");
  if (M == "0") {
    if (m == "0") {
      return from + " <" + M + "." + m + "." + js::increment(p) + "-0";
    }
    return from + " <" + M + "." + js::increment(m) + ".0-0";
  }
  return from + " <" + js::increment(M) + ".0.0-0";
}

std::string replace_tilde(const std::string& comp, const Options& options) {
  const std::string z = options.include_prerelease ? "-0" : "";
  const auto g = match_tilde(comp, options.loose);
  if (!g) {
    return comp;
  }
  const std::string M = group(g->major), m = group(g->minor), p = group(g->patch),
                    pr = group(g->prerelease);
  if (is_x(g->major)) {
    return std::string();
  }
  if (is_x(g->minor)) {
    return ">=" + M + ".0.0" + z + " <" + js::increment(M) + ".0.0-0";
  }
  if (is_x(g->patch)) {
    return ">=" + M + "." + m + ".0" + z + " <" + M + "." + js::increment(m) + ".0-0";
  }
  const std::string from = ">=" + M + "." + m + "." + p + (truthy(g->prerelease) ? "-" + pr : "");
  return from + " <" + M + "." + js::increment(m) + ".0-0";
}

std::string replace_xrange(std::string_view piece, const Options& options) {
  const std::string comp(js::trim(piece));
  const auto match = match_xrange(comp, options.loose);
  if (!match) {
    return comp;
  }
  const Parts& g = match->parts;
  std::string gtlt(match->gtlt), M = group(g.major), m = group(g.minor), p = group(g.patch);
  // invalidXRangeOrder: `x.1`, `1.x.2` stay as written (and fail as comparators later).
  if ((is_x(g.major) && !is_x(g.minor)) || (is_x(g.minor) && truthy(g.patch) && !is_x(g.patch))) {
    return comp;
  }
  const bool xM = is_x_text(M);
  const bool xm = xM || is_x_text(m);
  const bool xp = xm || is_x_text(p);
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
  return comp;  // the whole match: XRANGE is anchored at both ends
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

std::string replace_hyphen(const std::string& range, const Options& options) {
  const bool inc_pr = options.include_prerelease;
  const auto match = match_hyphen(range, options.loose);
  if (!match) {
    return range;
  }
  const Parts& f = match->from_parts;
  const Parts& t = match->to_parts;
  std::string from;
  if (is_x(f.major)) {
    from = "";
  } else if (is_x(f.minor)) {
    from = ">=" + group(f.major) + ".0.0" + (inc_pr ? "-0" : "");
  } else if (is_x(f.patch)) {
    from = ">=" + group(f.major) + "." + group(f.minor) + ".0" + (inc_pr ? "-0" : "");
  } else if (truthy(f.prerelease)) {
    from = ">=" + std::string(match->from);
  } else {
    from = ">=" + std::string(match->from) + (inc_pr ? "-0" : "");
  }
  std::string to;
  if (is_x(t.major)) {
    to = "";
  } else if (is_x(t.minor)) {
    to = "<" + js::increment(group(t.major)) + ".0.0-0";
  } else if (is_x(t.patch)) {
    to = "<" + group(t.major) + "." + js::increment(group(t.minor)) + ".0-0";
  } else if (truthy(t.prerelease)) {
    to = "<=" + group(t.major) + "." + group(t.minor) + "." + group(t.patch) + "-" +
         group(t.prerelease);
  } else if (inc_pr) {
    to = "<" + group(t.major) + "." + group(t.minor) + "." + js::increment(group(t.patch)) + "-0";
  } else {
    to = "<=" + std::string(match->to);
  }
  return std::string(js::trim(from + " " + to));
}

std::string trim_operator_whitespace(const std::string& range) {
  return trim_caret_spaces(trim_tilde_spaces(trim_comparator_spaces(range)));
}

std::string desugar_comparator(const std::string& comp, const Options& options) {
  std::string out = remove_first_build(comp);
  out = map_pieces(js::trim(out), [&](const std::string& c) { return replace_caret(c, options); });
  out = map_pieces(js::trim(out), [&](const std::string& c) { return replace_tilde(c, options); });
  out = map_pieces(out, [&](const std::string& c) { return replace_xrange(c, options); });
  // Stars: looseness is ignored, and only the first one goes (String.replace, non-global).
  return remove_first_star(js::trim(out));
}

std::string replace_gte0(std::string_view comp, const Options& options) {
  const std::string_view trimmed = js::trim(comp);
  return is_gte0(trimmed, options.include_prerelease) ? std::string() : std::string(trimmed);
}

}  // namespace reviewer::semver::detail

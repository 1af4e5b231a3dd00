#include "core/semver/functions.h"

namespace reviewer::semver {

bool satisfies(std::string_view version, std::string_view range, const Options& options) {
  auto r = Range::parse(range, options);
  return r && r->test(version);
}

std::optional<std::string> valid(std::string_view version, const Options& options) {
  auto v = parse_version(version, options.loose);
  if (!v) {
    return std::nullopt;
  }
  return v->to_string();
}

std::optional<std::string> valid_range(std::string_view range, const Options& options) {
  auto r = Range::parse(range, options);
  if (!r) {
    return std::nullopt;
  }
  return r->to_string().empty() ? std::string("*") : r->to_string();
}

util::Result<bool> outside(std::string_view version, std::string_view range, Side side,
                           const Options& options) {
  auto v = parse_version(version, options.loose);
  if (!v) {
    return v.error();
  }
  auto r = Range::parse(range, options);
  if (!r) {
    return r.error();
  }
  if (r->test(*v)) {
    return false;
  }

  // Written as for "above" (gtr); `sign` flips every comparison for "below" (ltr).
  const int sign = side == Side::kAbove ? 1 : -1;
  const std::string comp = side == Side::kAbove ? ">" : "<";
  const std::string ecomp = comp + "=";
  static const Comparator kGte0 = Comparator::parse(">=0.0.0", {}).value();
  const auto resolved = [](const Comparator& c) -> const Comparator& {
    return c.semver ? c : kGte0;
  };
  for (const auto& set : r->sets()) {
    REVIEWER_CHECK(!set.empty());  // Range::parse never keeps an empty set
    const Comparator* high = &resolved(set.front());
    const Comparator* low = high;
    for (const auto& original : set) {
      const Comparator* c = &resolved(original);
      if (sign * semver::compare(*c->semver, *high->semver) > 0) {
        high = c;
      } else if (sign * semver::compare(*c->semver, *low->semver) < 0) {
        low = c;
      }
    }
    if (high->op == comp || high->op == ecomp) {
      return false;
    }
    const int version_vs_low = sign * semver::compare(*v, *low->semver);
    if ((low->op.empty() || low->op == comp) && version_vs_low <= 0) {
      return false;
    }
    if (low->op == ecomp && version_vs_low < 0) {
      return false;
    }
  }
  return true;
}

util::Result<int> compare(std::string_view a, std::string_view b, const Options& options) {
  auto va = parse_version(a, options.loose);
  if (!va) {
    return va.error();
  }
  auto vb = parse_version(b, options.loose);
  if (!vb) {
    return vb.error();
  }
  return semver::compare(*va, *vb);
}

}  // namespace reviewer::semver

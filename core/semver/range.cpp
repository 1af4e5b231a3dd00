#include "core/semver/range.h"

#include <algorithm>

#include "core/semver/desugar.h"
#include "core/semver/js_text.h"
#include "core/semver/scan.h"
#include "core/util/text.h"

namespace reviewer::semver {
namespace {

constexpr std::string_view kNullSet = "<0.0.0-0";

// The error paths are cold: kept out of line, the comparisons satisfies() runs in a loop stay
// laid out together (bench_resolve's SatisfiesParsed measured the difference).
[[gnu::cold]] util::Refusal invalid(std::string message) {
  return util::refusal("invalid-range", std::move(message));
}

[[gnu::cold]] std::string quoted(std::string_view s) { return util::quote(s, '"'); }

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// testSet: every comparator holds, then the prerelease exclusion rule.
bool test_set(const std::vector<Comparator>& set, const Version& version, const Options& options) {
  for (const auto& c : set) {
    if (!c.test(version)) {
      return false;
    }
  }
  if (version.prerelease.empty() || options.include_prerelease) {
    return true;
  }
  for (const auto& c : set) {
    if (!c.semver || c.semver->prerelease.empty()) {
      continue;
    }
    const Version& allowed = *c.semver;
    if (allowed.major == version.major && allowed.minor == version.minor &&
        allowed.patch == version.patch) {
      return true;
    }
  }
  return false;
}

// isSatisfiable: every pair of comparators in the set intersects.
bool is_satisfiable(const std::vector<Comparator>& set, const Options& options) {
  for (std::size_t i = set.size(); i-- > 1;) {
    for (std::size_t j = 0; j < i; ++j) {
      if (!set[i].intersects(set[j], options)) {
        return false;
      }
    }
  }
  return true;
}

// parseRange for one `||` part; an empty list means "no comparator survived" (loose mode).
util::Result<std::vector<Comparator>> parse_part(std::string part, const Options& options) {
  part = detail::remove_all_builds(part);
  part = detail::replace_hyphen(part, options);
  part = detail::trim_operator_whitespace(part);

  std::vector<std::string> pieces = js::split(part, " ");
  for (auto& piece : pieces) {
    piece = detail::desugar_comparator(piece, options);
  }
  std::vector<std::string> list = js::split_whitespace(js::join(pieces, " "));
  for (auto& comp : list) {
    comp = detail::replace_gte0(comp, options);
  }
  if (options.loose) {
    std::erase_if(list,
                  [&](const std::string& comp) { return !detail::match_comparator(comp, true); });
  }

  // A null set replaces the whole part; duplicates keep their first position; "" (any) goes
  // when anything else is left.
  std::vector<Comparator> result;
  for (const auto& text : list) {
    auto comp = Comparator::parse(text, options);
    if (!comp) {
      return comp.error();
    }
    if (comp->value == kNullSet) {
      return std::vector<Comparator>{std::move(comp).value()};
    }
    auto same = std::find_if(result.begin(), result.end(),
                             [&](const Comparator& c) { return c.value == comp->value; });
    if (same != result.end()) {
      *same = std::move(comp).value();
    } else {
      result.push_back(std::move(comp).value());
    }
  }
  if (result.size() > 1) {
    std::erase_if(result, [](const Comparator& c) { return c.value.empty(); });
  }
  return result;
}

}  // namespace

util::Result<Comparator> Comparator::parse(std::string_view text, const Options& options) {
  const std::string comp = js::join(js::split_whitespace(js::trim(text)), " ");
  const auto m = detail::match_comparator(comp, options.loose);
  if (!m) {
    return invalid(quoted(comp) +
                   " is not a comparator (expected an operator <, <=, >, >=, = "
                   "or none, then a version)");
  }
  Comparator c;
  c.op = m->gtlt ? std::string(*m->gtlt) : "";
  if (c.op == "=") {
    c.op.clear();
  }
  if (m->version && !m->version->empty()) {
    auto v = parse_version(*m->version, options.loose);
    if (!v) {
      return invalid(v.error().message);
    }
    c.semver = std::move(v).value();
    c.value = c.op + c.semver->to_string();
  }
  return c;
}

bool Comparator::test(const Version& version) const {
  if (!semver) {
    return true;
  }
  const int c = compare(version, *semver);
  if (op.empty()) {
    return c == 0;
  }
  if (op == ">") {
    return c > 0;
  }
  if (op == ">=") {
    return c >= 0;
  }
  if (op == "<") {
    return c < 0;
  }
  return c <= 0;  // "<="
}

bool Comparator::intersects(const Comparator& other, const Options& options) const {
  if (op.empty()) {
    if (value.empty()) {
      return true;
    }
    auto range = Range::parse(other.value, options);
    return range && range->test(std::string_view(value));
  }
  if (other.op.empty()) {
    if (other.value.empty()) {
      return true;
    }
    auto range = Range::parse(value, options);
    return range && range->test(*other.semver);
  }
  if (options.include_prerelease && (value == kNullSet || other.value == kNullSet)) {
    return false;
  }
  if (!options.include_prerelease &&
      (starts_with(value, "<0.0.0") || starts_with(other.value, "<0.0.0"))) {
    return false;
  }
  const bool this_up = op[0] == '>';
  const bool other_up = other.op[0] == '>';
  if (this_up == other_up) {
    return true;  // same direction
  }
  if (semver->to_string() == other.semver->to_string() && op.back() == '=' &&
      other.op.back() == '=') {
    return true;
  }
  const int c = compare(*semver, *other.semver);
  if (c < 0 && this_up && !other_up) {
    return true;
  }
  if (c > 0 && !this_up && other_up) {
    return true;
  }
  return false;
}

util::Result<Range> Range::parse(std::string_view text, const Options& options) {
  if (js::utf16_length(text) > kMaxRangeLength) {
    return invalid("range is longer than " + std::to_string(kMaxRangeLength) + " characters");
  }
  Range range;
  range.options_ = options;
  const std::string raw = js::collapse_whitespace(text);
  for (const auto& part : js::split(raw, "||")) {
    auto set = parse_part(std::string(js::trim(part)), options);
    if (!set) {
      return invalid(quoted(raw) + " is not a valid semver range: " + set.error().message);
    }
    if (!set->empty()) {
      range.sets_.push_back(std::move(set).value());
    }
  }
  if (range.sets_.empty()) {
    return invalid(quoted(raw) + " is not a valid semver range: no comparator is valid");
  }
  auto& sets = range.sets_;
  if (sets.size() > 1) {
    // Null sets go unless all are; a lone "any" set makes the range just that.
    auto first = sets.front();
    std::erase_if(sets, [](const auto& s) { return s.front().value == kNullSet; });
    if (sets.empty()) {
      sets.push_back(std::move(first));
    } else if (sets.size() > 1) {
      for (const auto& s : sets) {
        if (s.size() == 1 && s.front().value.empty()) {
          auto any = s;
          sets.assign(1, std::move(any));
          break;
        }
      }
    }
  }
  for (std::size_t i = 0; i < sets.size(); ++i) {
    if (i > 0) {
      range.formatted_ += "||";
    }
    for (std::size_t k = 0; k < sets[i].size(); ++k) {
      if (k > 0) {
        range.formatted_ += ' ';
      }
      range.formatted_ += js::trim(sets[i][k].value);
    }
  }
  return range;
}

bool Range::test(const Version& version) const {
  return std::any_of(sets_.begin(), sets_.end(),
                     [&](const auto& set) { return test_set(set, version, options_); });
}

bool Range::test(std::string_view version) const {
  if (version.empty()) {
    return false;
  }
  auto v = parse_version(version, options_.loose);
  return v && test(*v);
}

bool Range::intersects(const Range& other) const {
  const Options& options = options_;
  return std::any_of(sets_.begin(), sets_.end(), [&](const auto& mine) {
    return is_satisfiable(mine, options) &&
           std::any_of(other.sets_.begin(), other.sets_.end(), [&](const auto& theirs) {
             return is_satisfiable(theirs, options) &&
                    std::all_of(mine.begin(), mine.end(), [&](const Comparator& a) {
                      return std::all_of(theirs.begin(), theirs.end(), [&](const Comparator& b) {
                        return a.intersects(b, options);
                      });
                    });
           });
  });
}

}  // namespace reviewer::semver

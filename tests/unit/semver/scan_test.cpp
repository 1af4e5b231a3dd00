// The hand-written scanners against the regular expressions they replaced (node-semver's, kept
// here as the oracle): the same match, the same groups, the same replacement, for every string
// in npm's vectors and for random strings over the characters the expressions care about.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/semver/scan.h"
#include "tests/unit/semver/regex_oracle.h"

namespace reviewer::semver::detail {
namespace {

using Groups = std::vector<std::optional<std::string>>;

Groups regex_groups(const std::string& s, const std::regex& re) {
  std::smatch m;
  if (!std::regex_search(s, m, re)) {
    return {};
  }
  Groups g;
  for (std::size_t i = 1; i < m.size(); ++i) {
    g.push_back(m[i].matched ? std::optional(m[i].str()) : std::nullopt);
  }
  return g;
}

std::optional<std::string> str(const Capture& c) {
  return c ? std::optional(std::string(*c)) : std::nullopt;
}

void add(Groups& g, const Parts& p) {
  for (const Capture* c : {&p.major, &p.minor, &p.patch, &p.prerelease, &p.build}) {
    g.push_back(str(*c));
  }
}

Groups scan_version(const std::string& s, bool loose) {
  Groups g;
  if (auto m = match_version(s, loose)) {
    add(g, *m);
  }
  return g;
}

Groups scan_xrange(const std::string& s, bool loose) {
  Groups g;
  if (auto m = match_xrange(s, loose)) {
    g.push_back(std::string(m->gtlt));
    add(g, m->parts);
  }
  return g;
}

template <class Match>
Groups scan_parts(const std::string& s, bool loose, Match match) {
  Groups g;
  if (auto m = match(s, loose)) {
    add(g, *m);
  }
  return g;
}

// COMPARATOR has groups inside FULLPLAIN the port never reads; only the first two are compared.
Groups scan_comparator(const std::string& s, bool loose) {
  Groups g;
  if (auto m = match_comparator(s, loose)) {
    g = {str(m->gtlt), str(m->version)};
  }
  return g;
}
Groups first_two(Groups g) {
  if (g.size() > 2) {
    g.resize(2);
  }
  return g;
}

Groups scan_hyphen(const std::string& s, bool loose) {
  Groups g;
  if (auto m = match_hyphen(s, loose)) {
    g.push_back(std::string(m->from));
    add(g, m->from_parts);
    g.push_back(std::string(m->to));
    add(g, m->to_parts);
  }
  return g;
}

// Every expression the port used, on one input.
void expect_same(const std::string& s) {
  const auto& re = semver_regexes();
  SCOPED_TRACE("input: \"" + s + "\"");
  for (bool loose : {false, true}) {
    SCOPED_TRACE(loose ? "loose" : "strict");
    EXPECT_EQ(scan_version(s, loose), regex_groups(s, loose ? re.loose : re.full));
    EXPECT_EQ(scan_xrange(s, loose), regex_groups(s, loose ? re.xrange_loose : re.xrange));
    EXPECT_EQ(scan_parts(s, loose, match_tilde),
              regex_groups(s, loose ? re.tilde_loose : re.tilde));
    EXPECT_EQ(scan_parts(s, loose, match_caret),
              regex_groups(s, loose ? re.caret_loose : re.caret));
    EXPECT_EQ(scan_comparator(s, loose),
              first_two(regex_groups(s, loose ? re.comparator_loose : re.comparator)));
    EXPECT_EQ(scan_hyphen(s, loose), regex_groups(s, loose ? re.hyphen_loose : re.hyphen));
    EXPECT_EQ(is_gte0(s, loose), std::regex_search(s, loose ? re.gte0_pre : re.gte0));
  }
  EXPECT_EQ(trim_comparator_spaces(s), std::regex_replace(s, re.comparator_trim, "$1$2$3"));
  EXPECT_EQ(trim_tilde_spaces(s), std::regex_replace(s, re.tilde_trim, "$1~"));
  EXPECT_EQ(trim_caret_spaces(s), std::regex_replace(s, re.caret_trim, "$1^"));
  EXPECT_EQ(remove_first_build(s),
            std::regex_replace(s, re.build, "", std::regex_constants::format_first_only));
  EXPECT_EQ(remove_all_builds(s), std::regex_replace(s, re.build_strip, ""));
  EXPECT_EQ(remove_first_star(s),
            std::regex_replace(s, re.star, "", std::regex_constants::format_first_only));
}

// Every string in npm's vectors, and each of its space-separated pieces.
std::set<std::string> vector_strings() {
  std::set<std::string> out;
  const std::string dir = std::string(REVIEWER_SOURCE_DIR) + "/tests/data/semver/";
  const std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& j) {
    if (j.is_string()) {
      const std::string s = j.get<std::string>();
      out.insert(s);
      for (std::size_t b = 0, e; b <= s.size(); b = e + 1) {
        e = std::min(s.find(' ', b), s.size());
        out.insert(s.substr(b, e - b));
      }
    } else if (j.is_structured()) {
      for (const auto& item : j) {
        walk(item);
      }
    }
  };
  for (const char* name :
       {"comparisons.json", "equality.json", "invalid-versions.json", "range-exclude.json",
        "range-include.json", "range-parse.json", "valid-versions.json", "version-gt-range.json",
        "version-lt-range.json", "version-not-gt-range.json", "version-not-lt-range.json"}) {
    std::ifstream in(dir + name);
    EXPECT_TRUE(in) << name;
    walk(nlohmann::json::parse(in, nullptr, false));
  }
  return out;
}

TEST(SemverScan, MatchesTheRegularExpressionsOnNpmsVectors) {
  const auto strings = vector_strings();
  EXPECT_GT(strings.size(), 500U);
  for (const auto& s : strings) {
    expect_same(s);
  }
}

// Short strings over the characters the expressions branch on, and runs around the bounds
// makeSafeRegex sets (256 digits, 250 identifier characters).
TEST(SemverScan, MatchesTheRegularExpressionsOnRandomText) {
  std::mt19937 rng(15);
  const std::string alphabet = "0000111299..--++xX*vv==<>~^ \t|ab";
  const std::vector<std::string> pieces = {"1.2.3", ">=", "~>", "^",  " - ", "-rc.1", "+b.2",
                                           "0.0.0", "x.", "1.", "=v", "||",  "01"};
  std::uniform_int_distribution<int> pick(0, 99);
  for (int n = 0; n < 2000; ++n) {
    std::string s;
    const int len = pick(rng) % 24;
    for (int i = 0; i < len; ++i) {
      const int r = pick(rng);
      if (r < 25) {
        s += pieces[r % pieces.size()];
      } else {
        s += alphabet[r % alphabet.size()];
      }
    }
    expect_same(s);
    if (HasFailure()) {
      return;  // one input's report is enough to debug
    }
  }
  for (std::size_t run : {249, 250, 251, 255, 256, 257, 258}) {
    const std::string digits(run, '7');
    const std::string letters(run, 'a');
    for (const std::string& s :
         {"1.2." + digits, "1." + digits + ".3", "1" + digits + ".2.3", "1.2.3-" + digits,
          "1.2.3-" + letters, "1.2.3-9" + letters, "1.2.3+" + letters, "1.2.3+a." + letters,
          "+" + letters + "x", "1.2.3" + letters, "> 1.2.3-" + letters + ".4", "~1.2." + digits,
          "1.2.3 - 1.2." + digits, "^1.2.3+" + letters}) {
      expect_same(s);
    }
  }
}

}  // namespace
}  // namespace reviewer::semver::detail

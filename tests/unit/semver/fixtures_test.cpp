// Every case of node-semver 7.8.5's own test vectors (tests/data/semver, kept in the repository),
// one parameterised test per case, none skipped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/semver/functions.h"

namespace reviewer::semver {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kFixtureDir = fs::path(REVIEWER_SOURCE_DIR) / "tests" / "data" / "semver";

// The number of rows per file in the vendored vectors; a missing or truncated file fails.
const std::map<std::string, std::size_t> kExpectedCounts = {
    {"comparisons.json", 31},          {"equality.json", 37},
    {"invalid-versions.json", 7},      {"range-exclude.json", 97},
    {"range-include.json", 126},       {"range-parse.json", 133},
    {"valid-versions.json", 22},       {"version-gt-range.json", 56},
    {"version-lt-range.json", 58},     {"version-not-gt-range.json", 80},
    {"version-not-lt-range.json", 83},
};
constexpr std::size_t kExpectedTotal = 730;

struct Case {
  std::string file;
  std::size_t row = 0;
  json data;
};

std::vector<Case> load_all() {
  std::vector<Case> cases;
  for (const auto& [file, count] : kExpectedCounts) {
    std::ifstream in(kFixtureDir / file);
    if (!in) {
      continue;  // counted below
    }
    const json rows = json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!rows.is_array()) {
      continue;
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
      cases.push_back({file, i, rows[i]});
    }
  }
  return cases;
}

const std::vector<Case>& all_cases() {
  static const std::vector<Case> kCases = load_all();
  return kCases;
}

Options options_of(const json& row, std::size_t index) {
  Options o;
  if (row.size() > index && row[index].is_object()) {
    o.loose = row[index].value("loose", false);
    o.include_prerelease = row[index].value("includePrerelease", false);
  }
  return o;
}

std::string describe(const Case& c) {
  return c.file + " row " + std::to_string(c.row) + ": " + c.data.dump();
}

TEST(SemverFixtures, EveryFileIsLoadedWithItsRowCount) {
  std::map<std::string, std::size_t> seen;
  for (const auto& c : all_cases()) {
    ++seen[c.file];
  }
  for (const auto& [file, count] : kExpectedCounts) {
    EXPECT_EQ(seen[file], count) << file;
  }
  EXPECT_EQ(all_cases().size(), kExpectedTotal);
  // No fixture file exists that this suite does not know about.
  std::size_t json_files = 0;
  for (const auto& entry : fs::directory_iterator(kFixtureDir)) {
    if (entry.path().extension() == ".json") {
      ++json_files;
      EXPECT_TRUE(kExpectedCounts.contains(entry.path().filename().string())) << entry.path();
    }
  }
  EXPECT_EQ(json_files, kExpectedCounts.size());
}

class SemverFixture : public ::testing::TestWithParam<std::size_t> {};

void check(const Case& c) {
  const json& r = c.data;
  const std::string& f = c.file;
  SCOPED_TRACE(describe(c));
  if (f == "range-include.json" || f == "range-exclude.json") {
    const auto o = options_of(r, 2);
    EXPECT_EQ(satisfies(r[1].get<std::string>(), r[0].get<std::string>(), o),
              f == "range-include.json");
  } else if (f == "range-parse.json") {
    const auto o = options_of(r, 2);
    const auto got = valid_range(r[0].get<std::string>(), o);
    if (r[1].is_null()) {
      EXPECT_EQ(got, std::nullopt);
    } else {
      EXPECT_EQ(got, std::optional<std::string>(r[1].get<std::string>()));
    }
  } else if (f == "comparisons.json") {
    const auto o = options_of(r, 2);
    const auto a = r[0].get<std::string>();
    const auto b = r[1].get<std::string>();
    auto ab = compare(a, b, o);
    auto ba = compare(b, a, o);
    ASSERT_TRUE(ab.ok() && ba.ok());
    EXPECT_EQ(*ab, 1);   // gt(a, b), compare == 1
    EXPECT_EQ(*ba, -1);  // lt(b, a)
    EXPECT_NE(*ab, 0);   // not eq
  } else if (f == "equality.json") {
    const auto o = options_of(r, 2);
    auto ab = compare(r[0].get<std::string>(), r[1].get<std::string>(), o);
    auto ba = compare(r[1].get<std::string>(), r[0].get<std::string>(), o);
    ASSERT_TRUE(ab.ok() && ba.ok());
    EXPECT_EQ(*ab, 0);
    EXPECT_EQ(*ba, 0);
  } else if (f == "valid-versions.json") {
    auto v = parse_version(r[0].get<std::string>());
    ASSERT_TRUE(v.ok()) << v.error().message;
    EXPECT_EQ(v->major, r[1].get<std::uint64_t>());
    EXPECT_EQ(v->minor, r[2].get<std::uint64_t>());
    EXPECT_EQ(v->patch, r[3].get<std::uint64_t>());
    ASSERT_EQ(v->prerelease.size(), r[4].size());
    for (std::size_t i = 0; i < r[4].size(); ++i) {
      if (r[4][i].is_number()) {
        EXPECT_TRUE(v->prerelease[i].is_number);
        EXPECT_EQ(v->prerelease[i].text, std::to_string(r[4][i].get<std::uint64_t>()));
      } else {
        EXPECT_FALSE(v->prerelease[i].is_number);
        EXPECT_EQ(v->prerelease[i].text, r[4][i].get<std::string>());
      }
    }
    EXPECT_EQ(v->build, r[5].get<std::vector<std::string>>());
  } else if (f == "invalid-versions.json") {
    EXPECT_EQ(valid(r[0].get<std::string>(), options_of(r, 2)), std::nullopt);
  } else {
    const bool above = f.find("-gt-") != std::string::npos;
    const bool expected = f.find("-not-") == std::string::npos;
    auto got = outside(r[1].get<std::string>(), r[0].get<std::string>(),
                       above ? Side::kAbove : Side::kBelow, options_of(r, 2));
    ASSERT_TRUE(got.ok()) << got.error().message;
    EXPECT_EQ(*got, expected);
  }
}

TEST_P(SemverFixture, Holds) { check(all_cases().at(GetParam())); }

INSTANTIATE_TEST_SUITE_P(Npm, SemverFixture, ::testing::Range<std::size_t>(0, kExpectedTotal),
                         [](const ::testing::TestParamInfo<std::size_t>& param_info) {
                           if (param_info.param >= all_cases().size()) {
                             return "missing_" + std::to_string(param_info.param);
                           }
                           const Case& c = all_cases()[param_info.param];
                           std::string name = c.file.substr(0, c.file.find('.'));
                           for (char& ch : name) {
                             if (ch == '-') ch = '_';
                           }
                           return name + "_" + std::to_string(c.row);
                         });

}  // namespace
}  // namespace reviewer::semver

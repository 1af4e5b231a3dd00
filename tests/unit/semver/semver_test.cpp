// Our own semver cases, for what npm's vectors do not cover: error values, the named
// forms, JavaScript whitespace and number quirks, intersects, and hostile input.
#include <gtest/gtest.h>

#include <string>

#include "core/semver/functions.h"

namespace reviewer::semver {
namespace {

const Options kIncPre{false, true};
const Options kLoose{true, false};

struct RangeCase {
  const char* range;
  const char* expected;  // nullptr: invalid
  Options options;
};

class ValidRange : public ::testing::TestWithParam<RangeCase> {};

TEST_P(ValidRange, Normalises) {
  const auto& c = GetParam();
  const auto got = valid_range(c.range, c.options);
  if (c.expected == nullptr) {
    EXPECT_EQ(got, std::nullopt) << c.range;
  } else {
    EXPECT_EQ(got, std::optional<std::string>(c.expected)) << c.range;
  }
}

// Expected values checked against npm semver 7.8.6 (node -e "semver.validRange(...)").
INSTANTIATE_TEST_SUITE_P(
    Forms, ValidRange,
    ::testing::Values(
        RangeCase{"22.x", ">=22.0.0 <23.0.0-0", {}},
        RangeCase{"22.x", ">=22.0.0-0 <23.0.0-0", kIncPre}, RangeCase{"", "*", {}},
        RangeCase{"  ", "*", {}}, RangeCase{"x", "*", {}}, RangeCase{"X.x.*", "*", {}},
        RangeCase{"^0.x", "<1.0.0-0", {}}, RangeCase{"^0.0.x", "<0.1.0-0", {}},
        RangeCase{"^0.0.1", ">=0.0.1 <0.0.2-0", {}},
        RangeCase{"^0.1.2-rc.1", ">=0.1.2-rc.1 <0.2.0-0", {}},
        RangeCase{"~1", ">=1.0.0 <2.0.0-0", {}}, RangeCase{"~> 1.2", ">=1.2.0 <1.3.0-0", {}},
        RangeCase{"v22", ">=22.0.0 <23.0.0-0", {}}, RangeCase{"=22.1.0", "22.1.0", {}},
        RangeCase{">=20 <23", ">=20.0.0 <23.0.0-0", {}},
        RangeCase{">= 20\t<\n23", ">=20.0.0 <23.0.0-0", {}},
        RangeCase{"1.2.3 - 2", ">=1.2.3 <3.0.0-0", {}}, RangeCase{">1.2", ">=1.3.0", {}},
        RangeCase{"<=1.2", "<1.3.0-0", {}}, RangeCase{">*", "<0.0.0-0", {}},
        RangeCase{">=0.0.0", "*", {}}, RangeCase{"<0.0.0-0 || 1.x", ">=1.0.0 <2.0.0-0", {}},
        RangeCase{"1.x || *", "*", {}},
        // U+00A0 and U+3000 are JavaScript whitespace.
        RangeCase{"\xc2\xa0>=1.2.3\xe3\x80\x80<2", ">=1.2.3 <2.0.0-0", {}},
        RangeCase{"lts/*", nullptr, {}}, RangeCase{"node", nullptr, {}},
        RangeCase{"latest", nullptr, {}}, RangeCase{">=abc", nullptr, {}},
        RangeCase{"1.2.3.4", nullptr, {}}, RangeCase{"||", "*", {}},
        RangeCase{"01.2.3", nullptr, {}}, RangeCase{"01.2.3", "1.2.3", kLoose},
        RangeCase{"^99999999999999999999", nullptr, {}},
        RangeCase{"^99999999999999999999", nullptr, kLoose}));

TEST(SemverVersion, ErrorsNameWhatIsWrong) {
  EXPECT_EQ(parse_version("1.2").error().message,
            "\"1.2\" is not a valid semantic version (expected "
            "MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD])");
  EXPECT_EQ(parse_version("1.2").error().rule, "invalid-version");
  EXPECT_EQ(parse_version("9007199254740992.0.0").error().message,
            "\"9007199254740992.0.0\": major version 9007199254740992 is larger than "
            "9007199254740991");
  EXPECT_EQ(parse_version(std::string(257, '1')).error().message,
            "version is longer than 256 characters");
  EXPECT_TRUE(parse_version("9007199254740991.0.0").ok());
}

TEST(SemverVersion, PrereleaseNumbersFollowJavaScript) {
  // Loose mode reads "05" as the number 5; a too-big numeric identifier stays a string.
  auto v = parse_version("1.2.3-05", true);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->to_string(), "1.2.3-5");
  auto big = parse_version("1.2.3-99999999999999999999");
  ASSERT_TRUE(big.ok());
  EXPECT_FALSE(big->prerelease[0].is_number);
  EXPECT_EQ(*compare("1.2.3-2", "1.2.3-10"), -1);
  EXPECT_EQ(*compare("1.2.3-a", "1.2.3-1"), 1);
  EXPECT_EQ(*compare("1.2.3-alpha.beta", "1.2.3-alpha.1"), 1);
  EXPECT_EQ(*compare("1.2.3+a", "1.2.3+b"), 0);
}

TEST(SemverVersion, CleanDropsPrefixesAndBuild) {
  EXPECT_EQ(*clean_version("  =v1.2.3+build ", {}), "1.2.3");
  EXPECT_FALSE(clean_version("1.2", {}).ok());
}

TEST(SemverSatisfies, PrereleaseExclusionRule) {
  EXPECT_FALSE(satisfies("22.0.0-rc.1", "22.x"));
  EXPECT_FALSE(satisfies("22.0.0-rc.1", ">=22"));
  EXPECT_FALSE(satisfies("22.0.0-rc.1", "*"));
  EXPECT_TRUE(satisfies("22.0.0-rc.1", "22.x", kIncPre));
  EXPECT_TRUE(satisfies("22.0.0-rc.2", ">=22.0.0-rc.1"));
  EXPECT_FALSE(satisfies("22.0.1-rc.2", ">=22.0.0-rc.1"));
  EXPECT_TRUE(satisfies("1.2.3", "1.2.3 || lts/*") == false);  // an invalid part voids all
}

TEST(SemverSatisfies, InvalidInputIsFalseNotAnError) {
  EXPECT_FALSE(satisfies("not a version", "*"));
  EXPECT_FALSE(satisfies("1.2.3", "lts/*"));
  EXPECT_FALSE(satisfies("", "*"));
  EXPECT_FALSE(satisfies("1.2.3", std::string(kMaxRangeLength + 1, ' ')));
  EXPECT_EQ(Range::parse(std::string(kMaxRangeLength + 1, 'x')).error().message,
            "range is longer than 1024 characters");
}

TEST(SemverSatisfies, HostileInputDoesNotCrash) {
  // The longest accepted range made of what the regular expressions backtrack over most.
  for (const char fill : {'v', '=', '1', '.', '-', '+', 'x', '^', '~', '<', '|'}) {
    const std::string range = std::string(kMaxRangeLength - 5, fill) + "1.2.3";
    (void)satisfies("1.2.3", range);
    (void)valid_range(range, kLoose);
    (void)parse_version(std::string(kMaxVersionLength - 5, fill) + "1.2.3", true);
  }
}

TEST(SemverRange, RangeErrorsQuoteTheRange) {
  const auto r = Range::parse(">=abc");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rule, "invalid-range");
  EXPECT_EQ(r.error().message,
            "\">=abc\" is not a valid semver range: \">=abc\" is not a comparator (expected an "
            "operator <, <=, >, >=, = or none, then a version)");
}

TEST(SemverRange, Intersects) {
  const auto a = Range::parse(">=24").value();
  EXPECT_FALSE(a.intersects(Range::parse("20").value()));
  EXPECT_TRUE(a.intersects(Range::parse("24.x").value()));
  EXPECT_TRUE(Range::parse("22.x").value().intersects(Range::parse("22.22.1").value()));
  EXPECT_FALSE(Range::parse("22.x").value().intersects(Range::parse("20.20.2").value()));
  EXPECT_TRUE(Range::parse("*").value().intersects(Range::parse("1.2.3").value()));
  EXPECT_TRUE(Range::parse("^1.2 || ^3").value().intersects(Range::parse(">3.5").value()));
}

TEST(SemverOutside, ErrorsForInvalidInput) {
  EXPECT_FALSE(gtr("nope", "1.x").ok());
  EXPECT_FALSE(ltr("1.2.3", "lts/*").ok());
  EXPECT_TRUE(*gtr("3.0.0", "1.x || 2.x"));
  EXPECT_TRUE(*ltr("0.9.0", "1.x || 2.x"));
}

}  // namespace
}  // namespace reviewer::semver

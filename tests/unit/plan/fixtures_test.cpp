// A plugin's fixtures, run as `reviewer fixtures` runs them, with the build tree's plugins: a
// refusal's message can be asserted as well as its rule, and a wrong one fails the case.
#include "core/plan/fixtures.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/temp_dir.h"
#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

using ::testing::HasSubstr;

constexpr const char* kCase = R"(  - name: CASE
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683
      - run: echo hi
        shell: pwsh
    expect: refuse non-bash-shell
)";

std::vector<FixtureResult> run(const std::string& message_line) {
  test_support::TempDir dir;
  std::filesystem::create_directories(dir / "fixtures");
  std::ofstream(dir / "fixtures/cases.yml") << "cases:\n" << kCase << message_line;
  return run_fixtures(dir.path(), testing::registry());
}

TEST(Fixtures, ARefusalsMessageCanBeAsserted) {
  auto without = run("");
  ASSERT_EQ(without.size(), 1u);
  EXPECT_TRUE(without[0].passed) << without[0].detail;
  auto told = run("    message: pwsh\n");
  ASSERT_EQ(told.size(), 1u);
  EXPECT_TRUE(told[0].passed) << told[0].detail;
  auto wrong = run("    message: no message says this\n");
  ASSERT_EQ(wrong.size(), 1u);
  EXPECT_FALSE(wrong[0].passed);
  EXPECT_THAT(wrong[0].detail,
              HasSubstr("expected a refusal whose message holds 'no message says this'"));
  EXPECT_THAT(wrong[0].detail, HasSubstr("non-bash-shell: "));
}

}  // namespace
}  // namespace reviewer::plan

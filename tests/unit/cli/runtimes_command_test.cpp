// `reviewer runtimes check FILE` as an operator runs it: a valid catalogue gives its summary and
// exit 0, a refused one its rule, file and JSON pointer and exit 3, a usage error exit 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/support/temp_dir.h"
#include "tests/unit/cli/run_reviewer.h"

namespace reviewer::cli {
namespace {

using testing::run_reviewer;
using ::testing::StartsWith;

const std::string kData = std::string(REVIEWER_SOURCE_DIR) + "/tests/data/runtimes/";

TEST(RuntimesCheck, ValidCatalogue) {
  auto [code, out] = run_reviewer("runtimes check " + kData + "valid.json");
  EXPECT_EQ(code, 0) << out;
  EXPECT_EQ(out, kData +
                     "valid.json: ok: 3 node releases (3 with their npm recorded), 2 bun "
                     "releases, 3 npm, 2 corepack, schedule lines 3\n");
}

TEST(RuntimesCheck, RefusedCatalogue) {
  auto [code, out] = run_reviewer("runtimes check " + kData + "invalid.json");
  EXPECT_EQ(code, 3) << out;
  EXPECT_THAT(out, StartsWith("catalogue-order: " + kData +
                              "invalid.json: /node/1/version: \"18.0.0\" does not come after "
                              "\"20.0.0\" (/node/0): each tool's releases ascend strictly by "
                              "version"));
}

TEST(RuntimesCheck, UnreadableFileAndUsage) {
  test_support::TempDir dir;
  auto [code, out] = run_reviewer("runtimes check " + (dir / "absent.json"));
  EXPECT_EQ(code, 3);
  EXPECT_THAT(out, StartsWith("invalid-catalogue: "));
  EXPECT_EQ(run_reviewer("runtimes").first, 2);
  EXPECT_EQ(run_reviewer("runtimes check a.json b.json").first, 2);
}

}  // namespace
}  // namespace reviewer::cli

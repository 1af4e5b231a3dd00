#include "core/report/render.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace reviewer::report {
namespace {

TEST(RenderText, OneLineWhateverTheMessageHolds) {
  const Refusal r{"invalid-env", "env 'A' holds \x1b]0;owned\x07 and\na second line",
                  util::SourceLocation{"w.yml", 3, 5}};
  EXPECT_EQ(to_text(r),
            "w.yml:3:5: invalid-env: env 'A' holds \\x1B]0;owned\\x07 and\\x0Aa second line");
}

TEST(RenderText, ExcerptOnlyForTheFileWhoseTextIsGiven) {
  const std::string source = "on: push\njobs: {}\n";
  const Refusal in_file{"trigger-missing", "no pull_request", util::SourceLocation{"w.yml", 1, 5}};
  EXPECT_EQ(to_text(in_file, "w.yml", source),
            "w.yml:1:5: trigger-missing: no pull_request\n"
            "on: push\n"
            "    ^");
  const Refusal elsewhere{"conflicting", "x", util::SourceLocation{"package.json", 1, 5}};
  EXPECT_EQ(to_text(elsewhere, "w.yml", source), "package.json:1:5: conflicting: x");
  const Refusal nowhere{"internal-error", "x", std::nullopt};
  EXPECT_EQ(to_text(nowhere, "w.yml", source), "internal-error: x");
}

TEST(RenderSarif, RegionsInTheGivenFileCarryTheirLine) {
  const std::string source = "on: push\njobs: {}\n";
  const Refusals rs = {{"trigger-missing", "no pull_request", util::SourceLocation{"w.yml", 1, 5}},
                       {"conflicting", "x", util::SourceLocation{"package.json", 1, 5}}};
  const auto sarif = to_sarif(rs, "1.0", "w.yml", source);
  const auto& results = sarif["runs"][0]["results"];
  const auto& in_file = results[0]["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(in_file["snippet"]["text"], "on: push");
  EXPECT_EQ(in_file["startColumn"], 5);
  EXPECT_FALSE(results[1]["locations"][0]["physicalLocation"]["region"].contains("snippet"));
  EXPECT_FALSE(
      to_sarif(rs, "1.0")["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
          .contains("snippet"));
}

}  // namespace
}  // namespace reviewer::report

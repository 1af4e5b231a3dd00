#include "core/report/render.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace reviewer::report

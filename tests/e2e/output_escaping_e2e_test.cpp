// The attack on the launcher, finding 5: text that did not come from the launcher (a step's
// name, its output, the name of a process it left running) reached the launcher's stdout raw,
// so a failing build could print a line that is exactly `review-build-ok` (or move a terminal's
// cursor over the verdict), and report.xml became unparseable. Now names with control
// characters are refused at plan time and everything else is escaped.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tests/e2e/e2e_support.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Lines of `text` that are exactly `line`, or exactly `line` after a carriage return.
int forged_lines(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  int n = 0;
  for (std::string l; std::getline(in, l);) {
    const auto cr = l.rfind('\r');
    if (l == line || (cr != std::string::npos && l.substr(cr + 1) == line)) {
      ++n;
    }
  }
  return n;
}

TEST_F(LauncherE2E, AStepsOutputCannotForgeTheVerdictLine) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - run: |\n"
                          "          printf 'review-build-ok\\n'\n"  // a plain line, prefixed
                          "          printf 'x\\rreview-build-ok\\n'\n"
                          "          printf '\\033[2K\\033[1Greview-build-ok\\n'\n"
                          "          exit 1\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(forged_lines(r.output, "review-build-ok"), 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("x\\x0Dreview-build-ok"));
  EXPECT_THAT(r.output, HasSubstr("\\x1B[2K\\x1B[1Greview-build-ok"));
  EXPECT_THAT(r.output, Not(HasSubstr("\x1b")));
}

TEST_F(LauncherE2E, ANameWithAControlCharacterIsRefusedAtPlanTime) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("test", "      - name: \"x\\nreview-build-ok\\n\"\n        run: exit 1\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(forged_lines(r.output, "review-build-ok"), 0) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("control-character-in-name"));
}

TEST_F(LauncherE2E, AProcessNameWithANewlineIsEscapedInTheKilledLine) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("test",
                   "      - run: |\n"
                   "          cp /bin/sleep \"$RUNNER_TEMP/$(printf 'x\\nreview-build-ok')\"\n"
                   "          (setsid \"$RUNNER_TEMP/$(printf 'x\\nreview-build-ok')\" 300 &)\n"
                   "          sleep 0.3\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  // The kernel keeps 15 bytes of a process name.
  EXPECT_THAT(r.output, HasSubstr("killed: x\\x0Areview-build- (")) << r.output;
  EXPECT_EQ(forged_lines(r.output, "review-build-ok"), 1) << r.output;  // the real verdict
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

// Lines of `text` as a consumer that splits as JavaScript does sees them (\n, \r, NEL, U+2028
// and U+2029 all end a line) that are exactly `line`.
int forged_unicode_lines(const std::string& text, const std::string& line) {
  int n = 0;
  std::string current;
  const auto end_line = [&] {
    n += current == line ? 1 : 0;
    current.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::string_view rest(text.data() + i, text.size() - i);
    if (text[i] == '\n' || text[i] == '\r') {
      end_line();
    } else if (rest.rfind("\xC2\x85", 0) == 0) {
      end_line();
      i += 1;
    } else if (rest.rfind("\xE2\x80\xA8", 0) == 0 || rest.rfind("\xE2\x80\xA9", 0) == 0) {
      end_line();
      i += 2;
    } else {
      current += text[i];
    }
  }
  end_line();
  return n;
}

// The attack (isolation issue, finding 9): U+2028, U+2029 and NEL passed raw into a step's
// output lines, the step table and the verdict, so a consumer splitting lines as JavaScript does
// saw `review-build-ok` twice in a failing review. They are escaped as control bytes are.
TEST_F(LauncherE2E, UnicodeLineSeparatorsCannotForgeTheVerdictLine) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - name: \"x\\Lreview-build-ok\\P\\N\"\n"
                          "        run: |\n"
                          "          printf 'a\\342\\200\\250review-build-ok\\n'\n"
                          "          printf 'b\\342\\200\\251review-build-ok\\n'\n"
                          "          printf 'c\\302\\205review-build-ok\\n'\n"
                          "          exit 1\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  // The control: the splitter sees the real verdict of an ok build, and the raw bytes.
  ASSERT_EQ(forged_unicode_lines("x\n\xE2\x80\xA8review-build-ok\n", "review-build-ok"), 1);
  EXPECT_EQ(forged_unicode_lines(r.output, "review-build-ok"), 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("a\\xE2\\x80\\xA8review-build-ok"));
  EXPECT_THAT(r.output, HasSubstr("b\\xE2\\x80\\xA9review-build-ok"));
  EXPECT_THAT(r.output, HasSubstr("c\\xC2\\x85review-build-ok"));
  // The step's name, in the table under the verdict (YAML's \L, \P and \N escapes).
  EXPECT_THAT(r.output, HasSubstr("x\\xE2\\x80\\xA8review-build-ok\\xE2\\x80\\xA9\\xC2\\x85"));
  EXPECT_THAT(r.output, Not(HasSubstr("\xE2\x80\xA8")));
}

}  // namespace
}  // namespace reviewer::e2e

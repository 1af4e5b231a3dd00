// Issue 38, item 6: code branches on a refusal's kind (util::RefusalKind), never on its rule id,
// which many places give and a rename would silently break.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace {

namespace fs = std::filesystem;

TEST(RuleBranches, NoCodeOfTheCoreComparesARuleId) {
  // `x.rule == "..."`, `x->rule != "..."`, `x.rule() == "..."` and the same written the other way.
  // (The file reader's own codes, util::kFile*, are still compared: issue 38 keeps that open.)
  const std::regex comparison(
      R"re((\.|->)rule(\(\))?\s*(==|!=)\s*"|"\s*(==|!=)\s*[A-Za-z_][A-Za-z0-9_.>()-]*(\.|->)rule\b)re");
  std::string found;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(REVIEWER_SOURCE_DIR) / "core")) {
    const auto ext = e.path().extension();
    if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h")) {
      continue;
    }
    std::ifstream in(e.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (std::regex_search(line, comparison)) {
        found += e.path().string() + ":" + std::to_string(n) + ": " + line + "\n";
      }
    }
  }
  EXPECT_EQ(found, "") << "branch on util::RefusalKind instead";
}

}  // namespace

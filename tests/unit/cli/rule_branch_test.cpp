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
  // `x.rule == "..."`, `x->rule != "..."`, `x.rule() == "..."` and the same written the other way;
  // and a rule compared with anything named like a constant (`x.rule == kSomething`,
  // `x.rule != util::kFileMissing`): the file reader's faults are util::file_fault's to name,
  // once, in core/util.
  const std::regex comparison(
      R"re((\.|->)rule(\(\))?\s*(==|!=)\s*("|(\w+::)*k[A-Z])|"\s*(==|!=)\s*[A-Za-z_][A-Za-z0-9_.>()-]*(\.|->)rule\b)re");
  std::string found;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(REVIEWER_SOURCE_DIR) / "core")) {
    const auto ext = e.path().extension();
    // core/util makes the file reader's codes and says which fault each is (file_fault).
    const bool util_module = e.path().parent_path().filename() == "util";
    if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h") || util_module) {
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
  EXPECT_EQ(found, "") << "branch on util::RefusalKind, or util::file_fault, instead";
}

}  // namespace

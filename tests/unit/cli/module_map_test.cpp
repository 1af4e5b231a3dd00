// docs/architecture.md's module table is the map of the build: each row's "may include" is
// exactly its module's CMake DEPS, the rows go down in dependency order, and every
// `#include "core/M/..."` in core/ names its own module or one it may include, directly or
// through those.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

namespace reviewer::cli {
namespace {

namespace fs = std::filesystem;
using Graph = std::map<std::string, std::set<std::string>>;

const fs::path kSource = REVIEWER_SOURCE_DIR;

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::set<std::string> modules_on_disk() {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(kSource / "core")) {
    if (e.is_directory()) {
      out.insert(e.path().filename().string());
    }
  }
  return out;
}

// What each module's CMakeLists.txt links of the other modules: `DEPS` of reviewer_module, or,
// for the programs of core/cli, every reviewer_<module> it names.
Graph cmake_graph() {
  const auto modules = modules_on_disk();
  Graph out;
  for (const auto& m : modules) {
    const std::string text = slurp(kSource / "core" / m / "CMakeLists.txt");
    std::string scope = text;
    std::smatch deps;
    if (std::regex_search(text, deps,
                          std::regex(R"(reviewer_module\([^)]*?DEPS([^)]*?)(SYSTEM_DEPS|\)))"))) {
      scope = deps[1];
    }
    std::set<std::string>& named = out[m];
    static const std::regex kTarget(R"(reviewer_([a-z]+)\b)");
    for (std::sregex_iterator it(scope.begin(), scope.end(), kTarget), end; it != end; ++it) {
      const std::string dep = (*it)[1];
      if (dep != m && modules.count(dep) != 0) {
        named.insert(dep);
      }
    }
  }
  return out;
}

struct Row {
  std::string module;
  std::set<std::string> may_include;
};

// The rows of the table under "## Modules", in order.
std::vector<Row> table_rows() {
  std::istringstream doc(slurp(kSource / "docs/architecture.md"));
  std::vector<Row> rows;
  bool in_section = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("## ", 0) == 0) {
      in_section = line == "## Modules";
      continue;
    }
    static const std::regex kRow(R"(^\| core/([a-z]+) \|.*\| ([^|]*) \|$)");
    std::smatch m;
    if (!in_section || !std::regex_match(line, m, kRow)) {
      continue;
    }
    Row row{m[1], {}};
    std::istringstream names(m[2]);
    for (std::string name; std::getline(names, name, ',');) {
      name.erase(0, name.find_first_not_of(' '));
      if (!name.empty() && name != "—") {
        row.may_include.insert(name);
      }
    }
    rows.push_back(row);
  }
  return rows;
}

std::set<std::string> reachable(const Graph& g, const std::string& from) {
  std::set<std::string> out;
  std::vector<std::string> pending{from};
  while (!pending.empty()) {
    const std::string m = pending.back();
    pending.pop_back();
    for (const auto& d : g.at(m)) {
      if (out.insert(d).second) {
        pending.push_back(d);
      }
    }
  }
  return out;
}

TEST(ModuleMap, TheTableIsTheBuildsDependencies) {
  const Graph cmake = cmake_graph();
  const auto rows = table_rows();
  std::set<std::string> listed;
  std::set<std::string> above;
  for (const auto& row : rows) {
    ASSERT_TRUE(cmake.count(row.module)) << "core/" << row.module << " is in the table, not core/";
    EXPECT_EQ(row.may_include, cmake.at(row.module)) << "core/" << row.module;
    for (const auto& dep : row.may_include) {
      EXPECT_TRUE(above.count(dep))
          << "core/" << row.module << " names " << dep << ", which is not a row above it";
    }
    above.insert(row.module);
    listed.insert(row.module);
  }
  for (const auto& [module, deps] : cmake) {
    EXPECT_TRUE(listed.count(module)) << "core/" << module << " is missing from the table";
  }
}

TEST(ModuleMap, EveryIncludeOfTheCoreIsOneItsModuleMayMake) {
  const Graph cmake = cmake_graph();
  static const std::regex kInclude(R"re(#include "core/([a-z]+)/)re");
  int includes = 0;
  for (const auto& e : fs::recursive_directory_iterator(kSource / "core")) {
    const auto ext = e.path().extension();
    if (ext != ".cpp" && ext != ".h") {
      continue;
    }
    const std::string module = e.path().lexically_relative(kSource / "core").begin()->string();
    const auto allowed = reachable(cmake, module);
    const std::string text = slurp(e.path());
    for (std::sregex_iterator it(text.begin(), text.end(), kInclude), end; it != end; ++it) {
      const std::string target = (*it)[1];
      ++includes;
      EXPECT_TRUE(target == module || allowed.count(target))
          << e.path().lexically_relative(kSource) << " includes core/" << target << ", which core/"
          << module << " may not include";
    }
  }
  EXPECT_GT(includes, 1000);  // the scan saw the tree
}

}  // namespace
}  // namespace reviewer::cli

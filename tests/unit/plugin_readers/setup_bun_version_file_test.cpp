// oven-sh/setup-bun's readVersionFromFile, reproduced: the reader its base name picks, what it
// gives (trimmed, unchecked), where, and every refusal's full text.
#include "plugins/setup-bun/bun_version_file.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/unit/plugin_readers/memory_reader.h"

namespace plugin_readers {
namespace {

using reviewer::sdk::base_name;
using testing::kLink;
using testing::memory_files;
using testing::summary;

const reviewer::sdk::Place kInput{".github/workflows/ci.yml", 9, 29};

struct Case {
  const char* name;
  std::map<std::string, std::string> files;
  std::string input;  // bun-version-file's value
  std::string want;   // summary()
  bool engines_bun = true;
};

class SetupBunVersionFile : public ::testing::TestWithParam<Case> {};

TEST_P(SetupBunVersionFile, ReadsAsTheActionReads) {
  const Case& c = GetParam();
  EXPECT_EQ(summary(setup_bun::read_bun_version_file({"bun-version-file", c.input, kInput},
                                                     c.engines_bun, memory_files(c.files))),
            c.want);
}

INSTANTIATE_TEST_SUITE_P(
    Read, SetupBunVersionFile,
    ::testing::Values(
        Case{"bun_version_trimmed",
             {{".bun-version", " 1.3.10 \n"}},
             ".bun-version",
             "1.3.10 @.bun-version:1:2"},
        Case{"bumrc_whole_text",
             {{"tools/.bumrc", "1.3.10\n1.2.0\n"}},
             "tools/.bumrc",
             "1.3.10\n1.2.0 @tools/.bumrc:1:1"},
        Case{"tool_versions_rest_of_the_line",
             {{".tool-versions", "nodejs 22\nbun 1.3.10 # pinned\n"}},
             ".tool-versions",
             "1.3.10 # pinned @.tool-versions:2:5"},
        Case{"tool_versions_bun_prefix_of_a_longer_name",
             {{".tool-versions", "bunx 1.2\n"}},
             ".tool-versions",
             "x 1.2 @.tool-versions:1:4"},
        Case{"tool_versions_white_space_over_lines",
             {{".tool-versions", "bun\n\n1.3.10\n"}},
             ".tool-versions",
             "1.3.10 @.tool-versions:3:1"},
        Case{"tool_versions_bun_alone",
             {{".tool-versions", "bun"}},
             ".tool-versions",
             " @.tool-versions"},
        Case{"tool_versions_without_bun",
             {{".tool-versions", "nodejs 22\n"}},
             ".tool-versions",
             " @.tool-versions"},
        Case{"package_manager_with_hash",
             {{"package.json", R"({"packageManager": "bun@1.3.10+sha256.abc"})"}},
             "package.json",
             "1.3.10+sha256.abc @package.json"},
        Case{"package_manager_split_at_every_bun_at",
             {{"package.json", R"({"packageManager": "xbun@1.2bun@3"})"}},
             "package.json",
             "1.2 @package.json"},
        Case{
            "engines_bun_when_the_manager_is_not_bun",
            {{"package.json", R"({"packageManager": "pnpm@9.1.0", "engines": {"bun": " ^1.3 "}})"}},
            "package.json",
            "^1.3 @package.json"},
        Case{"engines_bun_not_read_at_v2_0_2",
             {{"package.json", R"({"packageManager": "pnpm@9.1.0", "engines": {"bun": "^1.3"}})"}},
             "package.json",
             " @package.json",
             false},
        Case{"bun_at_nothing_is_empty_not_engines",
             {{"package.json", R"({"packageManager": "bun@", "engines": {"bun": "1.3.10"}})"}},
             "package.json",
             " @package.json"},
        Case{"trailing_slash_and_dot",
             {{"app/package.json", R"({"engines": {"bun": "1.3.x"}})"}},
             "./app/package.json/",
             "1.3.x @app/package.json"},
        Case{"scalar_json", {{"package.json", "22"}}, "package.json", " @package.json"}),
    [](const auto& test) { return std::string(test.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Refused, SetupBunVersionFile,
    ::testing::Values(
        Case{"unsupported_name",
             {{"bun.txt", "1.3.10\n"}},
             "bun.txt",
             "version-file-unsupported: 'bun-version-file' \"bun.txt\" is not a file "
             "oven-sh/setup-bun reads a version from (package.json, .tool-versions, .bumrc or "
             ".bun-version); it would ignore it, warn, and install another bun (package.json's, "
             "or the latest) @.github/workflows/ci.yml:9:29"},
        Case{"missing",
             {},
             ".bun-version",
             "version-file-missing: 'bun-version-file' names \".bun-version\", which is not in "
             "the repository; oven-sh/setup-bun warns and installs another bun (package.json's, "
             "or the latest) (\"File ... not found\") @.github/workflows/ci.yml:9:29"},
        Case{"symbolic_link",
             {{".bun-version", kLink}},
             ".bun-version",
             "invalid-declaration: 'bun-version-file' names \".bun-version\", which is reached "
             "through a symbolic link (Too many levels of symbolic links); a version file must be "
             "a regular file of the worktree of at most 65536 bytes, read without following "
             "links @.github/workflows/ci.yml:9:29"},
        Case{"absolute",
             {},
             "/tmp/.bun-version",
             "version-file-outside: 'bun-version-file' \"/tmp/.bun-version\" (an absolute path) "
             "leaves the workspace; the review reads version files of the repository under "
             "review only, so name a file inside it @.github/workflows/ci.yml:9:29"},
        Case{"outside",
             {},
             "../.bun-version",
             "version-file-outside: 'bun-version-file' \"../.bun-version\" leaves the workspace; "
             "the review reads version files of the repository under review only, so name a "
             "file inside it @.github/workflows/ci.yml:9:29"},
        Case{"byte_order_mark",
             {{"package.json", "\xEF\xBB\xBF{\"packageManager\": \"bun@1.3.10\"}"}},
             "package.json",
             "invalid-declaration: package.json begins with a byte-order mark, which JSON.parse "
             "rejects; oven-sh/setup-bun warns and installs another bun (package.json's, or the "
             "latest) @package.json"},
        Case{"not_json",
             {{"package.json", "{"}},
             "package.json",
             "invalid-declaration: package.json is not valid JSON: "
             "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error "
             "while parsing object key - unexpected end of input; expected string literal; "
             "oven-sh/setup-bun warns and installs another bun (package.json's, or the latest) "
             "@package.json"},
        Case{"null",
             {{"package.json", "null"}},
             "package.json",
             "invalid-declaration: package.json holds null, which the action's reader throws "
             "on; oven-sh/setup-bun warns and installs another bun (package.json's, or the "
             "latest) @package.json"},
        Case{"package_manager_not_a_string",
             {{"package.json", R"({"packageManager": {"name": "bun"}})"}},
             "package.json",
             "invalid-declaration: package.json packageManager is "
             "\"{\\\"name\\\":\\\"bun\\\"}\", not a string, which the action's reader throws on; "
             "oven-sh/setup-bun warns and installs another bun (package.json's, or the latest) "
             "@package.json"},
        Case{"engines_bun_not_a_string",
             {{"package.json", R"({"engines": {"bun": 1.3}})"}},
             "package.json",
             "invalid-declaration: package.json engines.bun is \"1.3\", not a string, which the "
             "action's reader throws on; oven-sh/setup-bun warns and installs another bun "
             "(package.json's, or the latest) @package.json"}),
    [](const auto& test) { return std::string(test.param.name); });

TEST(SetupBunVersionFileName, BaseNameAsNodeTakesIt) {
  EXPECT_EQ(base_name("a/b/.bun-version"), ".bun-version");
  EXPECT_EQ(base_name("package.json//"), "package.json");
  EXPECT_EQ(base_name("/"), "");
  EXPECT_EQ(base_name(""), "");
}

}  // namespace
}  // namespace plugin_readers

// pnpm/action-setup's readTarget, reproduced for the host: the packageManager string of the
// package.json `package_json_file` names (path.join'ed), unchecked, where it stands, "" where the
// action goes on without one, and the refusals where the action throws.
#include "plugins/pnpm-common/package_manager_file.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/unit/plugin_readers/memory_reader.h"

namespace plugin_readers {
namespace {

using testing::kLink;
using testing::memory_files;
using testing::summary;

const reviewer::sdk::Place kInput{".github/workflows/ci.yml", 9, 30};

struct Case {
  const char* name;
  std::map<std::string, std::string> files;
  std::string input;  // package_json_file's value
  std::string want;   // summary()
};

class PnpmActionPackageJson : public ::testing::TestWithParam<Case> {};

TEST_P(PnpmActionPackageJson, ReadsAsTheActionReads) {
  const Case& c = GetParam();
  EXPECT_EQ(summary(pnpm_common::read_package_manager({"package_json_file", c.input, kInput},
                                                      memory_files(c.files))),
            c.want);
}

INSTANTIATE_TEST_SUITE_P(
    Read, PnpmActionPackageJson,
    ::testing::Values(
        Case{"package_manager_as_written",
             {{"package.json", "{\n  \"packageManager\": \"pnpm@10.33.0+sha512.abc\"\n}\n"}},
             "package.json",
             "pnpm@10.33.0+sha512.abc @package.json:2:22"},
        Case{"another_package_manager_is_returned_for_the_plugin_to_judge",
             {{"package.json", R"({"packageManager": "yarn@4.1.0"})"}},
             "package.json",
             "yarn@4.1.0 @package.json:1:21"},
        Case{"joined_to_the_workspace",
             {{"web/package.json", R"({"packageManager": "pnpm@9.15.9"})"}},
             "./web//package.json",
             "pnpm@9.15.9 @web/package.json:1:21"},
        Case{"a_leading_slash_stays_inside_with_path_join",
             {{"web/package.json", R"({"packageManager": "pnpm@9.15.9"})"}},
             "/web/package.json",
             "pnpm@9.15.9 @web/package.json:1:21"},
        Case{"absent_field",
             {{"package.json", R"({"name": "x"})"}},
             "package.json",
             " @package.json"},
        Case{"not_a_string_counts_as_absent",
             {{"package.json", R"({"packageManager": ["pnpm@9.15.9"]})"}},
             "package.json",
             " @package.json"},
        Case{"a_number_document_has_no_member",
             {{"package.json", "42"}},
             "package.json",
             " @package.json"},
        Case{"missing_file_is_swallowed_as_v4_does", {}, "package.json", " @package.json"},
        Case{"null_document_throws",
             {{"package.json", "null"}},
             "package.json",
             "invalid-declaration: package.json holds null, which the action cannot destructure; "
             "pnpm/action-setup throws on it and the step fails @package.json"},
        Case{"byte_order_mark_throws",
             {{"package.json", "\xEF\xBB\xBF{}"}},
             "package.json",
             "invalid-declaration: package.json begins with a byte-order mark, which JSON.parse "
             "rejects; pnpm/action-setup throws on it and the step fails @package.json"},
        Case{"climbing_out_is_refused",
             {{"package.json", "{}"}},
             "../package.json",
             "version-file-outside: 'package_json_file' \"../package.json\" leaves the workspace; "
             "the review reads version files of the repository under review only, so name a file "
             "inside it @.github/workflows/ci.yml:9:30"},
        Case{"a_link_is_refused",
             {{"package.json", kLink}},
             "package.json",
             "invalid-declaration: 'package_json_file' \"package.json\" names \"package.json\", "
             "which is reached through a symbolic link (Too many levels of symbolic links); a "
             "version file must be a regular file of the worktree of at most 1048576 bytes, read "
             "without following links @.github/workflows/ci.yml:9:30"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(PnpmActionPackageJson, MalformedJsonThrows) {
  const auto r = pnpm_common::read_package_manager({"package_json_file", "package.json", kInput},
                                                   memory_files({{"package.json", "{nope"}}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.refusal().rule, "invalid-declaration");
  EXPECT_TRUE(r.refusal().message.starts_with("package.json is not valid JSON: "));
  EXPECT_TRUE(r.refusal().message.ends_with("; pnpm/action-setup throws on it and the step fails"));
}

}  // namespace
}  // namespace plugin_readers

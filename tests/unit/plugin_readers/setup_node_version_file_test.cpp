// actions/setup-node's getNodeVersionFromFile, reproduced: what each file gives (the version as
// the action takes it, unchecked), where, and every refusal's full text.
#include "plugins/setup-node/node_version_file.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/unit/plugin_readers/memory_reader.h"

namespace plugin_readers {
namespace {

using testing::kDirectory;
using testing::kLink;
using testing::memory_files;
using testing::summary;

using reviewer::sdk::kMaxVersionFileBytes;
using setup_node::NodeFileRules;

const reviewer::sdk::Place kInput{".github/workflows/ci.yml", 12, 30};

struct Case {
  const char* name;
  std::map<std::string, std::string> files;
  std::string input;  // node-version-file's value
  std::string want;   // summary()
  NodeFileRules rules = NodeFileRules::kDevEngines;
};

std::string read(const Case& c) {
  return summary(setup_node::read_node_version_file({"node-version-file", c.input, kInput}, c.rules,
                                                    memory_files(c.files)));
}

class SetupNodeVersionFile : public ::testing::TestWithParam<Case> {};

TEST_P(SetupNodeVersionFile, ReadsAsTheActionReads) {
  EXPECT_EQ(read(GetParam()), GetParam().want);
}

// The line-by-line reading of any text that is not a JSON object or array:
// /^(?:node(js)?\s+)?v?(?<version>[^\s]+)$/m, else the whole text trimmed.
INSTANTIATE_TEST_SUITE_P(
    Text, SetupNodeVersionFile,
    ::testing::Values(
        Case{"nvmrc", {{".nvmrc", "22\n"}}, ".nvmrc", "22 @.nvmrc:1:1"},
        Case{"v_prefix_crlf", {{".nvmrc", "v22.1.0\r\n"}}, ".nvmrc", "22.1.0 @.nvmrc:1:2"},
        Case{"comment_with_space_skipped",
             {{".nvmrc", "# pinned\n22\n"}},
             ".nvmrc",
             "22 @.nvmrc:2:1"},
        Case{"comment_without_space_taken",
             {{".nvmrc", "#pinned\n22\n"}},
             ".nvmrc",
             "#pinned @.nvmrc:1:1"},
        Case{"trailing_comment_whole_file",
             {{".nvmrc", "22 # LTS\n"}},
             ".nvmrc",
             "22 # LTS @.nvmrc:1:1"},
        Case{"tool_versions_nodejs",
             {{".tool-versions", "ruby 3.3.0\nnodejs 22.1.0\n"}},
             ".tool-versions",
             "22.1.0 @.tool-versions:2:8"},
        Case{"tool_versions_node",
             {{".tool-versions", "node v22\n"}},
             ".tool-versions",
             "22 @.tool-versions:1:7"},
        Case{"tool_versions_fallbacks_whole_file",
             {{".tool-versions", "nodejs 22.1.0 20.0.0\n"}},
             ".tool-versions",
             "nodejs 22.1.0 20.0.0 @.tool-versions:1:1"},
        Case{"prefix_white_space_runs_over_lines",
             {{".node-version", "node\n\n22\n"}},
             ".node-version",
             "22 @.node-version:3:1"},
        Case{"nodejs_without_space_is_the_version",
             {{".node-version", "nodejs22\n"}},
             ".node-version",
             "nodejs22 @.node-version:1:1"},
        Case{"lone_v", {{".nvmrc", "v\n"}}, ".nvmrc", "v @.nvmrc:1:1"},
        Case{"range_whole_file", {{".nvmrc", ">=20 <23\n"}}, ".nvmrc", ">=20 <23 @.nvmrc:1:1"},
        Case{"alias_unchecked", {{".nvmrc", "lts/*\n"}}, ".nvmrc", "lts/* @.nvmrc:1:1"},
        Case{"empty", {{".nvmrc", ""}}, ".nvmrc", " @.nvmrc"},
        Case{"white_space_only", {{".nvmrc", " \n\t\n"}}, ".nvmrc", " @.nvmrc"},
        Case{"byte_order_mark_trimmed_as_white_space",
             {{".nvmrc",
               "\xEF\xBB\xBF"
               "22\n"}},
             ".nvmrc",
             "22 @.nvmrc:1:4"},
        Case{"json_scalar_read_as_text", {{".nvmrc", "22\n"}}, "./.nvmrc", "22 @.nvmrc:1:1"},
        Case{"json_null_read_as_text", {{"v.json", "null"}}, "v.json", "null @v.json:1:1"},
        Case{"json_with_byte_order_mark_read_as_text",
             {{"package.json", "\xEF\xBB\xBF{\"engines\": {\"node\": \"22\"}}\n}\n"}},
             "package.json",
             "} @package.json:2:1"}),
    [](const auto& test) { return std::string(test.param.name); });

// package.json and any other JSON object: volta.node, devEngines.runtime (v6.3.0+),
// engines.node, volta.extends, in that order, each taken when JavaScript finds it truthy.
INSTANTIATE_TEST_SUITE_P(
    Manifest, SetupNodeVersionFile,
    ::testing::Values(
        Case{"volta_before_engines",
             {{"package.json", R"({"engines": {"node": ">=20"}, "volta": {"node": "22.1.0"}})"}},
             "package.json",
             "22.1.0 @package.json"},
        Case{"dev_engines_object",
             {{"package.json",
               R"({"devEngines": {"runtime": {"name": "node", "version": "^24"}},
                   "engines": {"node": ">=20"}})"}},
             "package.json",
             "^24 @package.json"},
        Case{"dev_engines_array_any_case_with_a_version",
             {{"package.json",
               R"({"devEngines": {"runtime": [{"name": "bun", "version": "1"}, {"name": "NODE"},
                   "node", {"name": "Node", "version": "22.x"}]}})"}},
             "package.json",
             "22.x @package.json"},
        Case{"dev_engines_before_v6_3_0",
             {{"package.json",
               R"({"devEngines": {"runtime": {"name": "node", "version": "^24"}},
                   "engines": {"node": ">=20"}})"}},
             "package.json",
             ">=20 @package.json",
             NodeFileRules::kV4},
        Case{"dev_engines_without_node_falls_to_engines",
             {{"package.json", R"({"devEngines": {"runtime": {"name": "deno", "version": "2"}},
                                   "engines": {"node": "20"}})"}},
             "package.json",
             "20 @package.json"},
        Case{"falsy_values_skipped",
             {{"package.json", R"({"volta": {"node": ""}, "engines": {"node": 0}})"}},
             "package.json",
             " @package.json"},
        Case{"nothing_named",
             {{"package.json", R"({"name": "app"})"}},
             "package.json",
             " @package.json"},
        Case{"json_array", {{"versions.json", R"(["22"])"}}, "versions.json", " @versions.json"},
        Case{"volta_extends_from_the_manifest_directory",
             {{"apps/web/package.json", R"({"volta": {"extends": "../../package.json"}})"},
              {"package.json", R"({"volta": {"node": "24.22.3"}})"}},
             "apps/web/package.json",
             "24.22.3 @package.json"},
        Case{"volta_extends_to_a_text_file",
             {{"package.json", R"({"volta": {"extends": ".nvmrc"}})"}, {".nvmrc", "20\n"}},
             "package.json",
             "20 @.nvmrc:1:1"},
        Case{"duplicate_keys_last_wins",
             {{"package.json", R"({"engines": {"node": "20", "node": "22"}})"}},
             "package.json",
             "22 @package.json"}),
    [](const auto& test) { return std::string(test.param.name); });

// Where the action fails, or reads something the review cannot tell.
INSTANTIATE_TEST_SUITE_P(
    Refused, SetupNodeVersionFile,
    ::testing::Values(
        Case{"missing",
             {},
             ".nvmrc",
             "version-file-missing: 'node-version-file' names \".nvmrc\", which is not in the "
             "repository; actions/setup-node fails the step there (\"The specified node version "
             "file at: ... does not exist\") @.github/workflows/ci.yml:12:30"},
        Case{"nul_byte",
             {{".nvmrc", "22\n"}},
             std::string(".nvmrc\0x", 8),
             "version-file-missing: 'node-version-file' names \".nvmrc\\x00x\", which holds a "
             "NUL byte, so no file has that name; actions/setup-node fails the step there (\"The "
             "specified node version file at: ... does not exist\") "
             "@.github/workflows/ci.yml:12:30"},
        Case{"symbolic_link",
             {{".nvmrc", kLink}},
             ".nvmrc",
             "invalid-declaration: 'node-version-file' names \".nvmrc\", which is reached "
             "through a symbolic link (Too many levels of symbolic links); a version file must be "
             "a regular file of the worktree of at most 65536 bytes, read without following "
             "links @.github/workflows/ci.yml:12:30"},
        Case{"directory",
             {{"versions", kDirectory}},
             "versions/",
             "invalid-declaration: 'node-version-file' names \"versions\", which is not a "
             "regular file; a version file must be a regular file of the worktree of at most "
             "65536 bytes, read without following links @.github/workflows/ci.yml:12:30"},
        Case{"the_workspace_itself",
             {},
             "a/..",
             "invalid-declaration: 'node-version-file' names \".\", which is the workspace "
             "itself, a directory; name a version file @.github/workflows/ci.yml:12:30"},
        Case{"too_large",
             {{".nvmrc", std::string(kMaxVersionFileBytes + 1, '2')}},
             ".nvmrc",
             "invalid-declaration: 'node-version-file' names \".nvmrc\", which is over the "
             "65536-byte bound; a version file must be a regular file of the worktree of at most "
             "65536 bytes, read without following links @.github/workflows/ci.yml:12:30"},
        Case{"outside",
             {{".nvmrc", "22\n"}},
             "app/../../.nvmrc",
             "version-file-outside: 'node-version-file' \"app/../../.nvmrc\" leaves the "
             "workspace; the review reads version files of the repository under review only, so "
             "name a file inside it @.github/workflows/ci.yml:12:30"},
        Case{"not_a_string",
             {{"package.json", R"({"engines": {"node": 22}})"}},
             "package.json",
             "invalid-declaration: package.json engines.node is \"22\", not a string; "
             "actions/setup-node fails the step on a version that is not one @package.json"},
        Case{"starts_as_json_but_does_not_parse",
             {{"package.json", "{\"engines\": {\"node\": \"\\ud800\"}}"}},
             "package.json",
             "invalid-declaration: package.json starts as JSON but does not parse here "
             "(package.json is not valid JSON: [json.exception.parse_error.101] parse error at "
             "line 1, column 29: syntax error while parsing value - invalid string: surrogate "
             "U+D800..U+DBFF must be followed by U+DC00..U+DFFF; last read: '\"\\ud800\"'); "
             "actions/setup-node reads a file JSON.parse rejects as plain text, and which of the "
             "two it does cannot be told @package.json"},
        Case{
            "dev_engines_null_entry",
            {{"package.json", R"({"devEngines": {"runtime": [null]}, "engines": {"node": "22"}})"}},
            "package.json",
            "invalid-declaration: package.json devEngines.runtime[0] is null, on which "
            "actions/setup-node's reader throws and then reads \"package.json\" as plain text, "
            "which holds no version a build can use @package.json"},
        Case{"dev_engines_name_not_a_string",
             {{"package.json", R"({"devEngines": {"runtime": {"name": 7, "version": "22"}}})"}},
             "package.json",
             "invalid-declaration: package.json devEngines.runtime.name is \"7\", not a string, "
             "on which actions/setup-node's reader throws and then reads \"package.json\" as "
             "plain text, which holds no version a build can use @package.json"},
        Case{"volta_extends_not_a_string",
             {{"package.json", R"({"volta": {"extends": ["../base.json"]}})"}},
             "package.json",
             "invalid-declaration: package.json volta.extends is \"[\\\"../base.json\\\"]\", not "
             "a path; actions/setup-node's reader then reads \"package.json\" as plain text, "
             "which holds no version a build can use @package.json"},
        Case{"volta_extends_cycle",
             {{"a.json", R"({"volta": {"extends": "b.json"}})"},
              {"b.json", R"({"volta": {"extends": "a.json"}})"}},
             "a.json",
             "invalid-declaration: b.json volta.extends \"a.json\" extends a chain of 8 files (a "
             "cycle?); actions/setup-node's reader then reads \"b.json\" as plain text, which "
             "holds no version a build can use @b.json"},
        Case{"volta_extends_outside",
             {{"package.json", R"({"volta": {"extends": "../base.json"}})"}},
             "package.json",
             "version-file-outside: package.json volta.extends \"../base.json\" leaves the "
             "workspace; the review reads version files of the repository under review only, so "
             "name a file inside it @package.json"},
        Case{"volta_extends_absolute",
             {{"package.json", R"({"volta": {"extends": "/etc/package.json"}})"}},
             "package.json",
             "version-file-outside: package.json volta.extends \"/etc/package.json\" (an "
             "absolute path) leaves the workspace; the review reads version files of the "
             "repository under review only, so name a file inside it @package.json"},
        Case{"volta_extends_missing",
             {{"package.json", R"({"volta": {"extends": "base.json"}})"}},
             "package.json",
             "version-file-missing: package.json volta.extends \"base.json\" names "
             "\"base.json\", which is not in the repository; actions/setup-node's reader then "
             "gives up on the extending file and reads it as plain text, which holds no version "
             "a build can use @package.json"},
        Case{"volta_extends_to_a_link",
             {{"package.json", R"({"volta": {"extends": "base.json"}})"}, {"base.json", kLink}},
             "package.json",
             "invalid-declaration: package.json volta.extends \"base.json\" names \"base.json\", "
             "which is reached through a symbolic link (Too many levels of symbolic links); a "
             "version file must be a regular file of the worktree of at most 65536 bytes, read "
             "without following links @package.json"}),
    [](const auto& test) { return std::string(test.param.name); });

// v3.x's parseNodeVersionFile: volta.node, then engines.node, else the JSON text line by line
// (the action then fails to install that "version"); text files as every release reads them.
INSTANTIATE_TEST_SUITE_P(
    V3, SetupNodeVersionFile,
    ::testing::Values(
        Case{"v3_volta_before_engines",
             {{"package.json", R"({"engines": {"node": ">=20"}, "volta": {"node": "22.1.0"}})"}},
             "package.json",
             "22.1.0 @package.json",
             NodeFileRules::kV3},
        Case{"v3_reads_no_dev_engines",
             {{"package.json",
               R"({"devEngines": {"runtime": {"name": "node", "version": "^24"}},
                   "engines": {"node": ">=20"}})"}},
             "package.json",
             ">=20 @package.json",
             NodeFileRules::kV3},
        Case{"v3_nvmrc",
             {{".nvmrc", "v20.11.0\n"}},
             ".nvmrc",
             "20.11.0 @.nvmrc:1:2",
             NodeFileRules::kV3},
        Case{"v3_nothing_named_reads_the_json_as_text",
             {{"package.json", "{\n  \"name\": \"app\"\n}\n"}},
             "package.json",
             "invalid-declaration: package.json has no volta.node or engines.node; "
             "actions/setup-node v3 then reads the JSON text line by line and takes \"{\" as the "
             "version, which it fails to install; write engines.node, or name a file that holds "
             "only the version @package.json:1:1",
             NodeFileRules::kV3},
        Case{"v3_does_not_follow_volta_extends",
             {{"apps/web/package.json", R"({"volta": {"extends": "../../package.json"}})"},
              {"package.json", R"({"volta": {"node": "24.22.3"}})"}},
             "apps/web/package.json",
             "invalid-declaration: apps/web/package.json has no volta.node or engines.node; "
             "actions/setup-node v3 then reads the JSON text line by line and takes "
             "\"{\\\"volta\\\": {\\\"extends\\\": \\\"../../package.json\\\"}}\" as the version, "
             "which it "
             "fails to install; write engines.node, or name a file that holds only the version "
             "@apps/web/package.json:1:1",
             NodeFileRules::kV3}),
    [](const auto& test) { return std::string(test.param.name); });

// Node's path.join keeps every input inside the workspace unless '..' climbs out of it.
TEST(SetupNodeVersionFilePath, JoinedAsPathJoinJoins) {
  const auto files = memory_files({{"app/.nvmrc", "20\n"}});
  for (const char* input : {"app/.nvmrc", "/app/.nvmrc", "./app//.nvmrc", "x/../app/.nvmrc"}) {
    EXPECT_EQ(summary(setup_node::read_node_version_file({"node-version-file", input, kInput},
                                                         NodeFileRules::kDevEngines, files)),
              "20 @app/.nvmrc:1:1")
        << input;
  }
}

}  // namespace
}  // namespace plugin_readers

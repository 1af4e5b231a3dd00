// The isolation issue's finding 3: a package.json without a lock whose git dependency has
// bundleDependencies made npm run a nested install inside the dependency's clone, which read the
// clone's .npmrc (`git=./pwn.sh`) and ran the pull request's code during the resolution, with
// --ignore-scripts and --userconfig /dev/null. Every spec but a registry name with a semver range
// or a dist-tag is now refused before npm starts.
#include "core/deps/manifest_sources.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/deps/npm_resolution.h"

namespace reviewer::deps {
namespace {

using ::testing::HasSubstr;

util::Status check(const std::string& json) {
  return check_registry_specs(nlohmann::json::parse(json));
}

TEST(RegistrySpecs, TheAttacksManifestIsRefusedBeforeNpmStarts) {
  auto r = check(R"({"name": "x", "dependencies": {"evil": "git+https://example.invalid/evil.git"},
                    "bundleDependencies": ["evil"]})");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-source-refused");
  EXPECT_THAT(r.error().message,
              HasSubstr("dependencies 'evil': "
                        "'git+https://example.invalid/evil.git' is a git source"));
}

TEST(RegistrySpecs, EveryOtherSourceIsRefusedByKind) {
  const std::pair<const char*, const char*> cases[] = {
      {"git://h/r.git", "git source"},
      {"github:u/r", "GitHub source"},
      {"u/r", "GitHub shorthand"},
      {"u/r#main", "GitHub shorthand"},
      {"gitlab:u/r", "GitLab source"},
      {"bitbucket:u/r", "Bitbucket source"},
      {"file:../x", "file source"},
      {"link:../x", "link to a folder"},
      {"https://h/x.tgz", "tarball URL"},
      {"http://h/x.tgz", "tarball URL"},
      {"./x", "path"},
      {"../x", "path"},
      {"/abs/x", "path"},
      {"~/x", "path"},
      {"workspace:*", "workspace source"},
      {"ssh://git@h/r", "another protocol"},
      {"npm:../x", "aliases no registry package"},
      {"npm:y@git+ssh://h/r", "git source"},
      {"^1 || $(id)", "neither a semver range nor a dist-tag"},
  };
  for (const auto& [spec, kind] : cases) {
    for (const char* group :
         {"dependencies", "devDependencies", "optionalDependencies", "peerDependencies"}) {
      auto r = check_registry_specs({{group, {{"x", spec}}}});
      ASSERT_FALSE(r) << group << " " << spec;
      EXPECT_EQ(r.error().rule, "dependency-source-refused") << spec;
      EXPECT_THAT(r.error().message, HasSubstr(kind)) << spec;
    }
  }
  // In overrides too, at any depth.
  EXPECT_FALSE(check(R"({"overrides": {"a": {"b": "github:u/r"}}})"));
  EXPECT_FALSE(check(R"({"overrides": {"a@1": "file:../x"}})"));
  // A name npm's registry cannot have.
  EXPECT_FALSE(check(R"({"dependencies": {"../evil": "1.0.0"}})"));
  EXPECT_FALSE(check(R"({"dependencies": {"x": 1}})"));
  EXPECT_FALSE(check_registry_spec("x", "git+https://h/r", "npm install -g"));
}

TEST(RegistrySpecs, RegistryRangesTagsAndAliasesPass) {
  EXPECT_TRUE(check(R"({"dependencies": {"a": "^1.2.3", "@s/b": "~2", "c": "*", "d": "",
                    "e": "latest", "f": "next-11", "g": ">=1 <3 || 4.x", "h": "npm:@s/i@^1",
                    "j": "npm:k", "JSONStream": "1.3.5"},
                    "devDependencies": {"l": "1.0.0-beta.2"},
                    "overrides": {"m": "2.0.0", "n": {".": "1", "o": "$a"}},
                    "bundleDependencies": ["a"]})"));
  EXPECT_TRUE(check_registry_spec("typescript", "*", "npm install -g"));
}

TEST(ResolutionCommand, EverySettingThatCouldRunSomethingIsTheHosts) {
  const auto argv = npm_resolution_command("/resolve", "https://registry.npmjs.org/", {});
  const std::string line = ::testing::PrintToString(argv);
  EXPECT_THAT(line, HasSubstr("\"--ignore-scripts\""));
  EXPECT_THAT(line, HasSubstr("\"--userconfig\", \"/dev/null\""));
  EXPECT_THAT(line, HasSubstr("\"--globalconfig\", \"/resolve/host-global-npmrc\""));
  EXPECT_THAT(line, HasSubstr("\"--git\", \"/bin/false\""));
}

}  // namespace
}  // namespace reviewer::deps

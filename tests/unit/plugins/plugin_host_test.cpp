// The plugin host's refusals, each fed a real file: copies of deliberately broken plugins
// (tests/abi) in a temporary plugin directory with a manifest.
#include <sys/stat.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/plugins/invoke.h"
#include "core/plugins/registry.h"
#include "tests/unit/plugins/plugin_dir.h"

namespace reviewer::plugins {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(PluginHost, LoadsAVerifiedPluginAndRunsItsCode) {
  Marker marker;
  PluginDir d;
  d.add("good");
  d.write_manifest();
  auto loaded = Registry::load(d.path());
  EXPECT_TRUE(loaded.ok());
  ASSERT_NE(loaded->find("test-org/good"), nullptr);
  EXPECT_EQ(loaded->find("test-org/good")->name, "good");
  EXPECT_EQ(loaded->claim("test-org/good")->refs.at(0).tag, "v1.0.0");
  EXPECT_TRUE(marker.exists()) << "the canary must be live: loading runs constructors";
}

TEST(PluginHost, TheBuiltPluginsLoadWithoutRefusal) {
  auto loaded = Registry::load(REVIEWER_BINARY_DIR "/plugins");
  EXPECT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->size(), 12u);
  EXPECT_EQ(loaded->loaded().size(), 12u);
  for (const char* action :
       {"actions/checkout", "actions/setup-node", "oven-sh/setup-bun", "actions/cache",
        "actions/upload-artifact", "actions/download-artifact", "socketdev/action",
        "codecov/codecov-action", "coverallsapp/github-action", "pnpm/action-setup", "pnpm/setup",
        "run"}) {
    EXPECT_NE(loaded->find(action), nullptr) << action;
  }
}

TEST(PluginHost, RefusesWrongAbiBeforeAnyCodeRuns) {
  Marker marker;
  PluginDir d;
  d.add("wrong_abi");
  d.write_manifest();
  auto loaded = Registry::load(d.path());
  ASSERT_THAT(rules(loaded), ElementsAre("plugin-abi-mismatch"));
  EXPECT_EQ(loaded.refusals()[0].message,
            "'wrong_abi.so' was built for another plugin ABI: expected entry "
            "'reviewer_plugin_v1', found 'reviewer_plugin_v2'");
  EXPECT_FALSE(marker.exists()) << "the file was loaded before it was refused";
}

TEST(PluginHost, RefusesALibraryWithoutEntryBeforeAnyCodeRuns) {
  Marker marker;
  PluginDir d;
  d.add("no_entry");
  d.write_manifest();
  auto loaded = Registry::load(d.path());
  EXPECT_THAT(rules(loaded), ElementsAre("plugin-no-entry"));
  EXPECT_FALSE(marker.exists());
}

TEST(PluginHost, RefusesADescriptorOfAnotherAbiVersion) {
  PluginDir d;
  d.add("descriptor_v2");
  d.write_manifest();
  auto loaded = Registry::load(d.path());
  ASSERT_THAT(rules(loaded), ElementsAre("plugin-abi-mismatch"));
  EXPECT_EQ(loaded.refusals()[0].message, "'descriptor_v2.so' declares ABI version 2, expected 1");
}

TEST(PluginHost, RefusesANameThatIsNotTheFileStem) {
  PluginDir d;
  d.add("good_misnamed");
  d.write_manifest();
  auto loaded = Registry::load(d.path());
  EXPECT_THAT(rules(loaded), ElementsAre("plugin-name-mismatch"));
}

TEST(PluginHost, RefusesTwoPluginsClaimingOneAction) {
  PluginDir d;
  d.add("good");
  d.add("good_twin");
  d.write_manifest();
  auto loaded = Registry::load(d.path());
  ASSERT_THAT(rules(loaded), ElementsAre("plugin-duplicate-action"));
  EXPECT_EQ(loaded.refusals()[0].message,
            "'good_twin.so' and 'good.so' both claim action 'test-org/good'");
}

TEST(PluginHost, RefusesAShortReviewedRef) {
  PluginDir d;
  d.add("bad_claim");
  d.write_manifest();
  EXPECT_THAT(rules(Registry::load(d.path())), ElementsAre("plugin-invalid-claim"));
}

TEST(PluginHost, RefusesAReviewDateThatIsNotADate) {
  PluginDir d;
  d.add("bad_date");
  d.write_manifest();
  auto loaded = Registry::load(d.path());
  ASSERT_THAT(rules(loaded), ElementsAre("plugin-invalid-claim"));
  EXPECT_THAT(loaded.refusals()[0].message,
              HasSubstr("its review date 'last week' is not YYYY-MM-DD"));
}

TEST(PluginHost, RefusesAFileMissingFromTheManifest) {
  Marker marker;
  PluginDir d;
  d.write_manifest();
  d.add("good");
  auto loaded = Registry::load(d.path());
  EXPECT_THAT(rules(loaded), ElementsAre("plugin-not-in-manifest"));
  EXPECT_FALSE(marker.exists());
}

TEST(PluginHost, RefusesAFileWhoseHashDiffers) {
  Marker marker;
  PluginDir d;
  std::string path = d.add("good");
  d.write_manifest();
  std::ofstream(path, std::ios::app) << "tampered";
  auto loaded = Registry::load(d.path());
  EXPECT_THAT(rules(loaded), ElementsAre("plugin-hash-mismatch"));
  EXPECT_FALSE(marker.exists());
}

TEST(PluginHost, RefusesADirectoryWithoutManifest) {
  PluginDir d;
  d.add("good");
  EXPECT_THAT(rules(Registry::load(d.path())), ElementsAre("plugin-manifest-missing"));
}

TEST(PluginHost, RefusesAManifestListingAMissingPlugin) {
  PluginDir d;
  d.write_manifest(std::string(64, 'c') + "  gone.so\n");
  EXPECT_THAT(rules(Registry::load(d.path())), ElementsAre("plugin-missing"));
}

TEST(PluginHost, RefusesASymlinkedPlugin) {
  Marker marker;
  PluginDir d;
  d.add("good");
  fs::create_symlink(d.path() + "/good.so", d.path() + "/link.so");
  d.write_manifest(*util::sha256_file(d.path() + "/good.so") + "  link.so\n");
  auto loaded = Registry::load(d.path());
  EXPECT_THAT(rules(loaded), ElementsAre("plugin-symlink"));
}

TEST(PluginHost, RefusesAGroupWritablePlugin) {
  PluginDir d;
  std::string path = d.add("good");
  d.write_manifest();
  ::chmod(path.c_str(), 0664);
  EXPECT_THAT(rules(Registry::load(d.path())), ElementsAre("plugin-permissions"));
}

TEST(PluginHost, RefusesAWorldWritableDirectory) {
  PluginDir d;
  d.add("good");
  d.write_manifest();
  ::chmod(d.path().c_str(), 0777);
  EXPECT_THAT(rules(Registry::load(d.path())), ElementsAre("plugin-permissions"));
}

TEST(PluginHost, RefusesAPluginOwnedBySomeoneElse) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "needs root to give a file away";
  }
  PluginDir d;
  std::string path = d.add("good");
  d.write_manifest();
  ASSERT_EQ(::chown(path.c_str(), 12345, 12345), 0);
  EXPECT_THAT(rules(Registry::load(d.path())), ElementsAre("plugin-permissions"));
}

TEST(PluginHost, RefusesAnUnexpectedFileAndANonRegularPlugin) {
  PluginDir d;
  d.write_manifest();
  std::ofstream(d.path() + "/README") << "hello";
  fs::create_directory(d.path() + "/dir.so");
  EXPECT_THAT(rules(Registry::load(d.path())),
              ElementsAre("plugin-unexpected-file", "plugin-not-regular"));
}

TEST(PluginHost, RefusesAMalformedSharedObject) {
  PluginDir d;
  std::ofstream(d.path() + "/junk.so") << "not an ELF file";
  ::chmod((d.path() + "/junk.so").c_str(), 0644);
  d.write_manifest(*util::sha256_file(d.path() + "/junk.so") + "  junk.so\n");
  EXPECT_THAT(rules(Registry::load(d.path())), ElementsAre("plugin-malformed"));
}

class RecordingHost final : public ExecuteHost {
 public:
  void log(std::string_view) override {}
  int run_script(const RunRequest&) override { return 0; }
  std::optional<HistoryShape> history_shape() override { return std::nullopt; }
  util::Result<std::optional<std::string>> read_worktree_file(const std::string&) override {
    return std::optional<std::string>();
  }
  void fail(const std::string& rule, const std::string& message) override {
    failures.push_back(rule + ": " + message);
  }
  std::vector<std::string> failures;
};

TEST(PluginHost, ExceptionsStopAtThePluginBoundary) {
  PluginDir d;
  d.add("throws");
  d.write_manifest();
  auto loaded = Registry::load(d.path());
  ASSERT_TRUE(loaded.ok());
  workflow::Step step;
  step.action = "test-org/throws";
  step.location = {"wf.yml", 3, 7};
  auto outcome = plan_step(*loaded->find("test-org/throws"), step, {"job", "wf.yml", 1});
  ASSERT_EQ(outcome.refusals.size(), 1u);
  EXPECT_EQ(outcome.refusals[0].rule, "plugin-internal-error");
  EXPECT_EQ(outcome.refusals[0].message, "plan exploded");
  EXPECT_EQ(outcome.refusals[0].location->to_string(), "wf.yml:3:7");
  RecordingHost host;
  execute_step(*loaded->find("test-org/throws"), step, host);
  EXPECT_THAT(host.failures, ElementsAre("plugin-internal-error: execute exploded"));
}

}  // namespace
}  // namespace reviewer::plugins

// The plan sink's file services: read_repository_file (SDK 1.11) answers through the host's reader
// and records each file once, as found; read_version_file, withdrawn in 1.10, is refused by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include <reviewer/sdk/abi.h>

#include "core/plugins/invoke.h"

namespace reviewer::plugins {
namespace {

using Outcome = RepositoryFileRead::Outcome;

// The files a fake reader answers for, and what the plugin got back.
std::vector<std::string> g_asked;
std::vector<std::string> g_got;
bool g_old_call = false;

void plan(reviewer_action_handle, const reviewer_step_view*, const reviewer_job_context*,
          const reviewer_plan_sink* sink) {
  if (g_old_call) {
    sink->read_version_file(sink->host, 1, {".nvmrc", 6}, {}, nullptr, nullptr);
    sink->run(sink->host);
    return;
  }
  for (const auto& path : g_asked) {
    std::string got;
    const int r =
        sink->read_repository_file(sink->host, {path.data(), path.size()}, 100,
                                   {{"ci.yml", 6}, 9, 11}, &got, [](void* out, reviewer_str bytes) {
                                     static_cast<std::string*>(out)->assign(bytes.data, bytes.size);
                                   });
    g_got.push_back(std::to_string(r) + " " + got);
  }
  sink->run(sink->host);
}

reviewer_action_handle create() { return reinterpret_cast<reviewer_action_handle>(&g_got); }
void destroy(reviewer_action_handle) {}

class FakeReader final : public RepositoryFileReader {
 public:
  Answer read(const std::string& path, std::size_t max_bytes) const override {
    EXPECT_EQ(max_bytes, 100U);
    if (path == "a") {
      return {Outcome::kRead, "bytes of a", "sha-a"};
    }
    if (path == "link") {
      return {Outcome::kUnreadable, "is reached through a symbolic link (x)", ""};
    }
    return {Outcome::kMissing, "", ""};
  }
};

PlanOutcome plan_with(const RepositoryFileReader* files) {
  reviewer_plugin_descriptor d{};
  d.abi_version = REVIEWER_ABI_VERSION;
  d.struct_size = sizeof(d);
  d.sdk_version = "1.10.0";
  d.name = "fake";
  d.create = &create;
  d.destroy = &destroy;
  d.plan = &plan;
  const PluginLibrary lib{"fake", "/nonexistent", &d, {}};
  workflow::Step step;
  step.action = "test-org/fake";
  step.location = {"ci.yml", 7, 7};
  JobInfo job{"test", "ci.yml", 1};
  job.repository_files = files;
  return plan_step(lib, step, job);
}

TEST(RepositoryFileSink, AnswersThroughTheReaderAndRecordsEachFileOnce) {
  g_old_call = false;
  g_asked = {"a", "gone", "link", "a"};
  g_got.clear();
  const FakeReader reader;
  const auto out = plan_with(&reader);
  EXPECT_EQ(out.decision, PlanOutcome::Decision::kRun);
  EXPECT_THAT(g_got,
              ::testing::ElementsAre("0 bytes of a", "1 ",
                                     "-1 is reached through a symbolic link (x)", "0 bytes of a"));
  const util::SourceLocation input{"ci.yml", 9, 11};
  EXPECT_THAT(
      out.repository_files,
      ::testing::ElementsAre(RepositoryFileRead{"a", input, 100, Outcome::kRead, "sha-a"},
                             RepositoryFileRead{"gone", input, 100, Outcome::kMissing, ""},
                             RepositoryFileRead{"link", input, 100, Outcome::kUnreadable, ""}));
}

// A plan made without the repository's files sees none of them, and records nothing to check.
TEST(RepositoryFileSink, WithoutTheRepositoryEveryFileIsMissing) {
  g_old_call = false;
  g_asked = {"a"};
  g_got.clear();
  const auto out = plan_with(nullptr);
  EXPECT_THAT(g_got, ::testing::ElementsAre("1 "));
  EXPECT_TRUE(out.repository_files.empty());
}

// A plugin built against SDK 1.4's action rules is refused, and told what replaced them.
TEST(RepositoryFileSink, TheWithdrawnVersionFileRulesAreRefused) {
  g_old_call = true;
  const FakeReader reader;
  const auto out = plan_with(&reader);
  EXPECT_EQ(out.decision, PlanOutcome::Decision::kRefuse);
  ASSERT_EQ(out.refusals.size(), 1U);
  EXPECT_EQ(out.refusals[0].rule, "plugin-protocol");
  EXPECT_EQ(out.refusals[0].message,
            "plugin 'fake' (SDK 1.10.0) asked the host to read a version file by an action's "
            "rules (read_version_file), which this host no longer knows; rebuild it against SDK "
            "1.11, whose plugins read the file through read_repository_file with the action's "
            "rules of their own");
  EXPECT_EQ(out.refusals[0].location->to_string(), "ci.yml:7:7");
}

}  // namespace
}  // namespace reviewer::plugins

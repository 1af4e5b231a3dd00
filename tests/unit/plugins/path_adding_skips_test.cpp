// Skipped actions that put a tool on PATH for the job's later steps (SocketDev/action's sfw,
// setup-bun's bun): the built plugins' execute phase, against a host that records what it asks.
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/plugins/invoke.h"
#include "core/plugins/registry.h"

namespace reviewer::plugins {
namespace {

namespace fs = std::filesystem;

class ScriptRecordingHost final : public ExecuteHost {
 public:
  void log(std::string_view) override {}
  int run_script(const RunRequest& request) override {
    requests.push_back(request);
    return 0;
  }
  std::optional<HistoryShape> history_shape() override { return std::nullopt; }
  util::Result<std::optional<std::string>> read_worktree_file(const std::string&) override {
    return std::optional<std::string>();
  }
  void fail(const std::string& rule, const std::string& message) override {
    failures.push_back(rule + ": " + message);
  }
  std::vector<RunRequest> requests;
  std::vector<std::string> failures;
};

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs the plugin's execute phase for `step`, then the one script it asks for as the host does
// (bash -e) against a fresh GITHUB_PATH file; what the script appended to that file.
std::string github_path_after(const std::string& action_id, const workflow::Step& step) {
  auto loaded = Registry::load(REVIEWER_BINARY_DIR "/plugins");
  EXPECT_TRUE(loaded.ok());
  const PluginLibrary* plugin = loaded->find(action_id);
  EXPECT_NE(plugin, nullptr);
  if (plugin == nullptr) {
    return "(no plugin)";
  }
  ScriptRecordingHost host;
  execute_step(*plugin, step, host);
  EXPECT_THAT(host.failures, ::testing::IsEmpty());
  if (host.requests.size() != 1) {
    return "(" + std::to_string(host.requests.size()) + " requests)";
  }
  const RunRequest& r = host.requests[0];
  EXPECT_EQ(r.shell, "");
  EXPECT_EQ(r.working_directory, "");
  EXPECT_EQ(r.timeout_minutes, -1);
  EXPECT_THAT(r.env, ::testing::IsEmpty());
  const fs::path dir = fs::temp_directory_path() / ("path-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "script.sh") << r.script;
  std::ofstream(dir / "path").close();
  const std::string command = "env -i GITHUB_PATH='" + (dir / "path").string() +
                              "' /bin/bash -e '" + (dir / "script.sh").string() + "'";
  EXPECT_EQ(std::system(command.c_str()), 0);
  std::string appended = read_all(dir / "path");
  fs::remove_all(dir);
  return appended;
}

// On CI, `sfw` exists only after SocketDev/action ran: the action core.addPath()s the directory
// it downloaded sfw to, which reaches the job's later steps through GITHUB_PATH. The skip must
// do the same through the host, so a step that calls sfw without the action fails as on CI.
TEST(PathAddingSkips, SocketFirewallPutsSfwOnGithubPath) {
  workflow::Step step;
  step.job_id = "test";
  step.index = 1;
  step.action = "SocketDev/action";
  step.ref = "937f824ec476dfd164d4a4d9995751427b0be143";
  step.inputs = {{"mode", "firewall", {}}};
  EXPECT_EQ(github_path_after("socketdev/action", step), "/opt/reviewer/runtimes/sfw/bin\n");
}

// GitHub's runner images carry no Bun (actions/runner-images#9521), so `bun` exists on CI only
// after setup-bun ran.
TEST(PathAddingSkips, SetupBunPutsBunOnGithubPath) {
  workflow::Step step;
  step.job_id = "test";
  step.index = 1;
  step.action = "oven-sh/setup-bun";
  step.ref = "0c5077e51419868618aeaa5fe8019c62421857d6";
  step.inputs = {{"bun-version", "1.3.10", {}}};
  EXPECT_EQ(github_path_after("oven-sh/setup-bun", step), "/opt/reviewer/runtimes/bun/bin\n");
}

}  // namespace
}  // namespace reviewer::plugins

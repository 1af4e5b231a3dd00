// The namespace run model as an engine, for hosts without a container engine: run-model.sh
// makes the sandbox from util-linux namespaces over a staged install, runs the launcher, copies
// the reports out as the sandbox user and tears everything down.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/contract/attestation.h"
#include "core/deps/sandbox_network.h"
#include "core/exec/host_process.h"
#include "core/host/engine.h"
#include "core/host/host_identity.h"
#include "core/util/install_layout.h"

namespace reviewer::host {
namespace {

class NamespaceEngine final : public Engine {
 public:
  explicit NamespaceEngine(std::string stage) : stage_(std::move(stage)) {}

  std::string name() const override { return "namespaces"; }

  // The staged install is the one image this engine has: image.json names it.
  util::Result<std::string> image_id(const std::string& image) override {
    const std::string path = stage_ + "/share/reviewer/image.json";
    std::ifstream in(path);
    const auto j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || !j.contains("name") || !j["name"].is_string()) {
      return util::Refusal{"image-missing",
                           "no staged image at " + stage_ + " (" + path +
                               " is missing or unreadable); stage one with "
                               "docker/run-model/stage-image.sh BUILD_DIR STAGE_DIR",
                           std::nullopt};
    }
    const std::string staged = j["name"].get<std::string>();
    if (staged != image) {
      return util::Refusal{"image-missing",
                           "the review needs " + image + " but the namespaces engine's stage " +
                               stage_ + " is " + staged,
                           std::nullopt};
    }
    return "stage:" + stage_;
  }

  // The run model's resolution: the stage's npm in a run-model sandbox of its own (a user
  // namespace, read-only root, no capability, the resolution folder as its worktree), never as a
  // host process. Its network namespace is one the host made, holding only a loopback with the
  // host's registry on it; the sandbox joins it, and its root has no rights over it.
  util::Result<deps::ResolutionRun> resolve(const deps::ResolutionSpec& spec) override {
    auto network = deps::make_loopback_network();
    if (!network) {
      return network.error();
    }
    auto url = deps::serve_in_network(network->get(), spec.serve);
    if (!url) {
      return url.error();
    }
    std::vector<std::string> argv = {
        util::data_directory() + "/run-model.sh", "--workspace", spec.dir, "--prefix", stage_,
        // Open as long as this call runs: run-model.sh's nsenter opens it there.
        "--net-path",
        "/proc/" + std::to_string(::getpid()) + "/fd/" + std::to_string(network->get()),
        "--exec-as-user", "--owner", this_process_identity(), "--pids-limit",
        std::to_string(spec.limits.pids), "--memory", spec.limits.memory, "--cpus",
        spec.limits.cpus, "--exec", "/usr/bin/env", "--",
        "PATH=/opt/reviewer/runtimes/node/bin:/usr/bin:/bin", "HOME=/tmp/review"};
    for (auto& word : spec.command("/workspace", *url)) {
      argv.push_back(std::move(word));
    }
    exec::CommandOptions limited;
    limited.limit = spec.limit;
    auto exit = exec::run_command(argv, limited);
    if (!exit) {
      return exit.error();
    }
    return deps::ResolutionRun{exit->status, exit->timed_out};
  }

  util::Result<SandboxRun> run(const SandboxSpec& spec) override {
    std::vector<std::string> argv = {util::data_directory() + "/run-model.sh", "--workspace",
                                     spec.workspace, "--prefix", stage_};
    for (auto& entry : contract::assignment_environment(spec.assignment)) {
      argv.insert(argv.end(), {"--assign", std::move(entry)});
    }
    // The host that runs it, so that `reviewer gc` ends it once the host is gone (leftovers.h).
    argv.insert(argv.end(), {"--owner", this_process_identity()});
    // The run model's cgroups take podman's limits (run-model.sh).
    argv.insert(argv.end(), {"--pids-limit", std::to_string(spec.limits.pids), "--memory",
                             spec.limits.memory, "--cpus", spec.limits.cpus});
    if (!spec.reports_dir.empty()) {
      argv.insert(argv.end(), {"--reports", spec.reports_dir});
    }
    if (!spec.dependencies.empty()) {
      argv.insert(argv.end(), {"--deps", spec.dependencies});
    }
    if (!spec.pristine.empty()) {
      argv.insert(argv.end(), {"--pristine", spec.pristine});
    }
    exec::CommandOptions limited;
    limited.limit = spec.limit;
    std::string last_line;
    limited.last_line = &last_line;
    if (!spec.nonce.empty()) {
      // run-model.sh hands the launcher what --pass-env names from its own environment.
      limited.extra_env.push_back(std::string(contract::kNonceVariable) + "=" + spec.nonce);
      argv.insert(argv.end(), {"--pass-env", contract::kNonceVariable});
    }
    auto exit = exec::run_command(argv, limited);
    if (!exit) {
      return exit.error();
    }
    return SandboxRun{exit->status, exit->timed_out, last_line};
  }

 private:
  std::string stage_;
};

}  // namespace

std::unique_ptr<Engine> make_namespace_engine(const std::string& stage) {
  return std::make_unique<NamespaceEngine>(stage);
}

}  // namespace reviewer::host

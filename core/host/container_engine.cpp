// A container engine's command line (podman, or docker's compatible one), called through
// share/reviewer/engine.sh (the one place the project calls an engine, with its podman settings),
// making the production sandbox: `create --init --read-only --tmpfs ... --network none --cap-drop
// ALL --security-opt no-new-privileges`, `start`, `exec` the launcher, read the reports as the
// sandbox user, `rm`.
#include <fstream>
#include <vector>

#include <stdlib.h>
#include <unistd.h>

#include "core/contract/attestation.h"
#include "core/contract/sandbox_user.h"
#include "core/contract/view_layout.h"
#include "core/deps/sandbox_network.h"
#include "core/exec/host_process.h"
#include "core/host/engine.h"
#include "core/host/host_identity.h"
#include "core/host/interruption.h"
#include "core/host/leftovers.h"
#include "core/host/user_namespace.h"
#include "core/util/install_layout.h"

namespace reviewer::host {
namespace {

constexpr std::size_t kMaxReportBytes = 64u << 20;

// The image's user, which the launcher becomes and its steps run as.
std::string image_user() {
  return std::to_string(contract::kSandboxUid) + ":" + std::to_string(contract::kSandboxGid);
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) {
    s.pop_back();
  }
  return s;
}

class ContainerEngine final : public Engine {
 public:
  // engine.sh picks the engine from REVIEWER_ENGINE; this process sets it once, for every
  // command it runs.
  explicit ContainerEngine(std::string program)
      : program_(std::move(program)), engine_(util::data_directory() + "/engine.sh") {
    ::setenv("REVIEWER_ENGINE", program_.c_str(), 1);
  }

  std::string name() const override { return program_; }

  util::Result<deps::ResolutionRun> resolve(const deps::ResolutionSpec& spec) override {
    static int count = 0;
    const std::string name =
        "reviewer-resolve-" + std::to_string(::getpid()) + "-" + std::to_string(count++);
    // clang-format off
    const std::vector<std::string> create = {engine_, "create", "--name", name,
            // The production sandbox's flags: no network but the host's registry, below.
            "--init", "--read-only", "--tmpfs", "/tmp", "--network", "none", "--cap-drop", "ALL",
            "--security-opt", "no-new-privileges", "--user", std::to_string(kSandboxUid),
            // A user namespace of its own; `U` gives the folder to the mapped user.
            "--userns", user_namespace(), "--security-opt", seccomp_profile(),
            "--pids-limit", std::to_string(spec.limits.pids), "--memory", spec.limits.memory,
            "--cpus", spec.limits.cpus,
            "--volume", spec.dir + ":/resolve:U", "--workdir", "/resolve", "--env", "HOME=/tmp",
            "--label", "org.reviewer.resolution=1", "--label", host_label(),
            ref(spec.image), "sleep", "infinity"};
    // clang-format on
    const std::vector<std::string> remove = {engine_, "rm",       "--force", "--time",
                                             "0",     "--ignore", name};
    const Held held = hold_command(remove);
    struct Remove {
      const std::vector<std::string>& argv;
      ~Remove() {
        exec::CommandOptions quiet;
        quiet.stdout_file = "/dev/null";
        quiet.quiet_stderr = true;
        (void)exec::run_command(argv, quiet);
      }
    } removed{remove};
    if (auto made = exec::command_output(create); !made) {
      return made.error();
    }
    if (auto started = exec::command_output({engine_, "start", name}); !started) {
      return started.error();
    }
    auto pid = exec::command_output({engine_, "inspect", "--format", "{{.State.Pid}}", name});
    if (!pid) {
      return pid.error();
    }
    auto network = deps::network_namespace_of(static_cast<pid_t>(std::atol(trimmed(*pid).c_str())));
    if (!network) {
      return network.error();
    }
    auto url = deps::serve_in_network(network->get(), spec.serve);
    if (!url) {
      return url.error();
    }
    std::vector<std::string> exec = {engine_, "exec", "--user", std::to_string(kSandboxUid), name};
    for (auto& word : spec.command("/resolve", *url)) {
      exec.push_back(std::move(word));
    }
    exec::CommandOptions limited;
    limited.limit = spec.limit;
    auto exit = exec::run_command(exec, limited);
    if (!exit) {
      return exit.error();
    }
    return deps::ResolutionRun{exit->status, exit->timed_out};
  }

  util::Result<std::string> image_id(const std::string& image) override {
    auto id =
        exec::command_output({engine_, "image", "inspect", "--format", "{{.Id}}", ref(image)});
    if (!id) {
      return util::Refusal{"image-missing",
                           "the image " + ref(image) + " is not built on this host (" + program_ +
                               " image inspect failed); build it with " +
                               "docker/reviewer/build.sh BUILD_DIR " + image,
                           std::nullopt};
    }
    return trimmed(*id);
  }

  util::Result<SandboxRun> run(const SandboxSpec& spec) override {
    auto created = exec::command_output(create_command(spec));
    if (!created) {
      return created.error();
    }
    const std::string id = trimmed(*created);
    const Held held = hold_command({engine_, "rm", "--force", "--time", "0", id});
    struct Remove {
      const std::string& engine;
      const std::string& id;
      ~Remove() {
        exec::CommandOptions quiet;
        quiet.stdout_file = "/dev/null";
        quiet.quiet_stderr = true;
        (void)exec::run_command({engine, "rm", "--force", "--time", "0", id}, quiet);
      }
    } remove{engine_, id};
    // The clone belongs to the steps' user, as the host id the sandbox's namespace maps it to,
    // which the engine chose at creation.
    auto mapping = exec::command_output(
        {engine_, "inspect", "--format", "{{json .HostConfig.IDMappings}}", id});
    if (!mapping) {
      return mapping.error();
    }
    auto ids = mapped_host_ids(*mapping, contract::kSandboxUid);
    if (!ids) {
      return ids.error();
    }
    if (auto given = give_tree_to(spec.workspace, *ids); !given) {
      return given.error();
    }
    auto started = exec::command_output({engine_, "start", id});
    if (!started) {
      return started.error();
    }
    exec::CommandOptions limited;
    limited.limit = spec.limit;
    std::string last_line;
    limited.last_line = &last_line;
    std::vector<std::string> exec = {engine_, "exec", "--user", "0:0"};
    if (!spec.nonce.empty()) {
      // `--env NAME` without a value: the engine takes it from its own environment, so the
      // nonce is in no argv.
      limited.extra_env.push_back(std::string(contract::kNonceVariable) + "=" + spec.nonce);
      exec.insert(exec.end(), {"--env", contract::kNonceVariable});
    }
    exec.insert(exec.end(), {id, "/opt/reviewer/bin/reviewer-launch"});
    auto exit = exec::run_command(exec, limited);
    if (!exit) {
      return exit.error();
    }
    if (!spec.reports_dir.empty()) {
      copy_report(id, "report.json", spec.reports_dir);
      copy_report(id, "report.xml", spec.reports_dir);
    }
    return SandboxRun{exit->status, exit->timed_out, last_line};
  }

 private:
  static std::string ref(const std::string& image) { return "localhost/" + image + ":latest"; }
  // Which host process made the sandbox, so that `reviewer gc` removes it once that is gone.
  static std::string host_label() {
    return std::string(kHostLabel) + "=" + this_process_identity();
  }
  static std::string user_namespace() { return "auto:size=" + std::to_string(kUserNamespaceSize); }
  static std::string seccomp_profile() {
    return "seccomp=" + util::data_directory() + "/seccomp.json";
  }

  std::vector<std::string> create_command(const SandboxSpec& spec) const {
    // clang-format off
    std::vector<std::string> argv = {engine_, "create",
            // The production sandbox, as written in the spec.
            "--init", "--read-only", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp", "--tmpfs", "/run",
            "--network", "none", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
            // A user namespace of its own (user_namespace.h), and no kernel keyring
            // (docker/reviewer/seccomp-profile.sh).
            "--userns", user_namespace(), "--security-opt", seccomp_profile(),
            // PID 1 runs as root, so no step (the image's user) can write the assignment into
            // its memory; the launcher's exec is root too, and CAP_SETUID and CAP_SETGID are what
            // it needs to become the image's user for good before anything runs
            // (core/launch/become_sandbox_user.h). Nothing else in the sandbox runs as root.
            "--user", "0:0", "--cap-add", "SETUID", "--cap-add", "SETGID",
            // What it may take of the host: a fork bomb, a memory hog or a descriptor leak in a
            // step fails this review and nothing else. (Explicit ulimits also because this host
            // cannot raise them past its own: no CAP_SYS_RESOURCE.)
            "--pids-limit", std::to_string(spec.limits.pids), "--memory", spec.limits.memory,
            "--cpus", spec.limits.cpus,
            "--ulimit", "nofile=20000:20000", "--ulimit", "nproc=4096:4096",
            // The clone, and the assignment in the creation environment.
            "--workdir", "/workspace", "--volume", spec.workspace + ":/workspace",
            "--label", "org.reviewer.sandbox=1", "--label", host_label()};
    // clang-format on
    for (auto& entry : contract::assignment_environment(spec.assignment)) {
      argv.insert(argv.end(), {"--env", std::move(entry)});
    }
    if (!spec.dependencies.empty()) {
      argv.insert(argv.end(),
                  {"--volume", spec.dependencies + ":" + contract::kDependencyMount + ":ro"});
    }
    if (!spec.pristine.empty()) {
      argv.insert(argv.end(), {"--volume", spec.pristine + ":" + contract::kPristineMount + ":ro"});
    }
    argv.insert(argv.end(), {ref(spec.image), "sleep", "infinity"});
    return argv;
  }

  // Read inside the sandbox as its own user, so nothing a step planted there (a link to a host
  // path) is opened with the host's rights, and a FIFO there cannot hold the host (10 s); a
  // report that is missing is left out.
  void copy_report(const std::string& id, const std::string& file, const std::string& dir) {
    auto text = exec::command_output({engine_, "exec", "--user", image_user(), id, "timeout", "10",
                                      "cat", "/tmp/review/" + file},
                                     kMaxReportBytes);
    if (text) {
      std::ofstream(dir + "/" + file, std::ios::binary | std::ios::trunc) << *text;
    }
  }

  std::string program_;
  std::string engine_;
};

}  // namespace

std::unique_ptr<Engine> make_container_engine(const std::string& program) {
  return std::make_unique<ContainerEngine>(program);
}

}  // namespace reviewer::host

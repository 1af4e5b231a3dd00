#include "tests/e2e/sandbox.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/contract/assignment.h"

namespace reviewer::e2e {
namespace {

constexpr const char* kAfterMarker = "--- reviewer-e2e: after the launcher ---";

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// The run's assignment as the host's engines write it (contract::assignment_environment), each
// entry after `option`: "--env" for podman, "--assign" for the run model. Unchecked, as a test
// may hand the launcher a broken one.
std::string assignment_options(const SandboxRun& run, const std::string& option) {
  reviewer::contract::Assignment a;
  a.workflow = run.workflow;
  a.job = run.job;
  a.base = run.base;
  a.matrix = run.matrix;
  a.pinned_only = run.pinned_only;
  a.event = run.event;
  a.same_repository = run.same_repository;
  std::string out;
  for (const auto& entry : reviewer::contract::assignment_environment(a)) {
    out += " " + option + " " + quote(entry);
  }
  return out;
}

void must(const std::string& command) {
  auto r = run_command(command);
  if (r.exit_code != 0) {
    throw std::runtime_error("command failed: " + command + "\n" + r.output);
  }
}

}  // namespace

std::string RunResult::last_line() const {
  std::string s = output;
  while (!s.empty() && s.back() == '\n') {
    s.pop_back();
  }
  auto nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

RunResult run_command(const std::string& command) {
  RunResult r;
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) {
    return r;
  }
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) {
    r.output.append(buf.data(), n);
  }
  int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

ExampleRepo::ExampleRepo() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "reviewer-e2e-XXXXXX").string();
  root_ = ::mkdtemp(tmpl.data());
  source_ = root_ + "/source";
  clone_ = root_ + "/clone";
  std::filesystem::copy(REVIEWER_SOURCE_DIR "/examples/node-app", source_,
                        std::filesystem::copy_options::recursive);
}

ExampleRepo::~ExampleRepo() { std::filesystem::remove_all(root_); }

void ExampleRepo::write(const std::string& relative, const std::string& content) {
  std::filesystem::create_directories(
      std::filesystem::path(source_ + "/" + relative).parent_path());
  std::ofstream(source_ + "/" + relative, std::ios::trunc) << content;
}

void ExampleRepo::clone(bool full) {
  must(std::string(REVIEWER_SOURCE_DIR "/docker/run-model/make-clone.sh ") +
       (full ? "--full " : "") + quote(source_) + " " + quote(clone_));
}

std::string ExampleRepo::commit_source(const std::string& message) {
  const std::string git =
      "git -c user.name=reviewer -c user.email=reviewer@example.invalid -C " + quote(source_) + " ";
  if (!std::filesystem::exists(source_ + "/.git")) {
    must(git + "init -q -b main");
  }
  must(git + "add -A");
  must(git + "commit -q --allow-empty -m " + quote(message));
  auto head = run_command(git + "rev-parse HEAD");
  return head.output.substr(0, head.output.find('\n'));
}

void ExampleRepo::git_in_clone(const std::string& args) {
  must("git -c safe.directory='*' -C " + quote(clone_) + " " + args);
}

namespace {

// The empty directory beside `clone` that a fresh-worktree run gets as /workspace.
std::string empty_worktree(const std::string& clone) {
  const std::string dir = clone + "-worktree";
  must("rm -rf " + quote(dir) + " && mkdir " + quote(dir));
  return dir;
}

// The same run in a real review image with the production flags (REVIEWER_E2E_ENGINE=podman):
// the image the image.build fixture built from this build tree, the clone owned by the image's
// user, the caller's variables and arguments on the exec, `after` as a second exec in the same
// container, which is removed at the end.
RunResult run_in_image(const std::string& clone, const SandboxRun& run) {
  const std::string workspace = run.fresh_worktree ? empty_worktree(clone) : clone;
  const std::string engine = REVIEWER_SOURCE_DIR "/docker/reviewer/engine.sh";
  static int counter = 0;
  const std::string name =
      "reviewer-e2e-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  // As reviewer review creates it: PID 1 root, and the launcher's exec root with only what it
  // takes to become the image's user (core/host/container_engine.cpp).
  const std::string layout =
      (run.pid1_as_steps ? std::string() : " --user 0:0 --cap-add SETUID --cap-add SETGID") +
      " --pids-limit " + (run.pids_limit.empty() ? "4096" : run.pids_limit) + " --memory " +
      (run.memory.empty() ? "8g" : run.memory);
  must(engine + " create --name " + name +
       " --init --read-only --tmpfs /tmp --tmpfs /var/tmp --tmpfs /run --network none"
       " --cap-drop ALL --security-opt no-new-privileges --userns auto:size=65536"
       " --security-opt seccomp=" REVIEWER_SOURCE_DIR "/docker/reviewer/seccomp.json" +
       layout + " --workdir /workspace --volume " + quote(workspace + ":/workspace") +
       (run.fresh_worktree ? " --volume " + quote(clone + ":/var/lib/reviewer-pristine:ro") : "") +
       assignment_options(run, "--env") +
       " localhost/" REVIEWER_E2E_IMAGE ":latest sleep infinity >/dev/null");
  struct Remove {
    std::string command;
    ~Remove() { run_command(command); }
  } remove{engine + " rm --force --time 0 " + name + " >/dev/null"};
  // The clone belongs to the image's user as the host id the container's own user namespace
  // maps 1000 to (core/host/user_namespace.h).
  must(REVIEWER_SOURCE_DIR "/tests/support/give-clone-to-container.sh " + engine + " " + name +
       " " + quote(workspace));
  must(engine + " start " + name + " >/dev/null");
  const std::string as_user = engine + " exec --user 1000:1000 " + name + " /bin/bash -c ";
  std::string before;
  if (!run.before.empty()) {
    before = run_command(as_user + quote(run.before)).output;
  }
  std::string cmd = engine + " exec";
  for (const auto& e : run.caller_env) {
    cmd += " --env " + quote(e);
  }
  cmd += " " + name + " /opt/reviewer/bin/reviewer-launch";
  for (const auto& a : run.launcher_args) {
    cmd += " " + quote(a);
  }
  RunResult r = run_command(cmd);
  r.output = before + r.output;
  if (!run.after.empty()) {
    r.after = run_command(as_user + quote(run.after)).output;
  }
  return r;
}

}  // namespace

bool in_image() {
  const char* engine = std::getenv("REVIEWER_E2E_ENGINE");
  return engine != nullptr && std::string(engine) == "podman";
}

RunResult run_launcher(const std::string& workspace, const SandboxRun& run) {
  if (in_image()) {
    return run_in_image(workspace, run);
  }
  std::string cmd = std::string(REVIEWER_SOURCE_DIR "/docker/run-model/run-model.sh") +
                    " --workspace " +
                    quote(run.fresh_worktree ? empty_worktree(workspace) : workspace) +
                    (run.fresh_worktree ? " --pristine " + quote(workspace) : "") + " --prefix " +
                    quote(run.prefix) + assignment_options(run, "--assign");
  for (const auto& e : run.caller_env) {
    cmd += " --caller-env " + quote(e);
  }
  if (run.pid1_as_steps) {
    cmd += " --pid1-as-steps";
  }
  if (!run.pids_limit.empty()) {
    cmd += " --pids-limit " + quote(run.pids_limit);
  }
  if (!run.memory.empty()) {
    cmd += " --memory " + quote(run.memory);
  }
  if (!run.before.empty()) {
    cmd += " --before " + quote(run.before);
  }
  if (!run.after.empty()) {
    // The marker separates the two outputs.
    cmd += " --after " + quote("echo '" + std::string(kAfterMarker) + "'; " + run.after);
  }
  cmd += " --";
  for (const auto& a : run.launcher_args) {
    cmd += " " + quote(a);
  }
  RunResult r = run_command(cmd);
  if (auto at = r.output.find(std::string(kAfterMarker) + "\n"); at != std::string::npos) {
    r.after = r.output.substr(at + std::strlen(kAfterMarker) + 1);
    r.output.erase(at);
  }
  return r;
}

bool can_run_sandbox() { return ::geteuid() == 0; }

}  // namespace reviewer::e2e

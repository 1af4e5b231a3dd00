#include "tests/image/container.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>

#include "core/contract/assignment.h"

namespace reviewer::image_test {

std::string Outcome::last_line() const {
  std::string text = output;
  while (!text.empty() && text.back() == '\n') {
    text.pop_back();
  }
  const auto at = text.rfind('\n');
  return at == std::string::npos ? text : text.substr(at + 1);
}

Outcome run(const std::string& command) {
  Outcome out;
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) {
    out.output = "popen failed";
    return out;
  }
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) {
    out.output.append(buf, n);
  }
  const int status = ::pclose(p);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

std::string engine() { return REVIEWER_SOURCE_DIR "/docker/reviewer/engine.sh"; }

std::string tag(const std::string& name) { return "localhost/" + name + ":latest"; }

std::string missing_image_reason(const std::string& name) {
  if (image_exists(name)) {
    return {};
  }
  return tag(name) +
         " does not exist: the image.build fixture was skipped (see its output for why) or this "
         "machine has no container engine";
}

bool image_exists(const std::string& name) {
  return run(engine() + " image inspect " + shell_quote(tag(name)) + " >/dev/null").exit_code == 0;
}

int containers_left_by(const std::string& review_output) {
  static const std::string kLine = "review: host process ";
  const auto at = review_output.find(kLine);
  if (at == std::string::npos) {
    return -1;
  }
  const auto end = review_output.find('\n', at);
  const std::string host = review_output.substr(at + kLine.size(), end - at - kLine.size());
  return std::stoi(run(engine() + " ps --all --quiet --filter " +
                       shell_quote("label=org.reviewer.host=" + host) + " | wc -l")
                       .output);
}

Sandbox::Sandbox(const std::string& image, const std::string& workspace) {
  static std::atomic<int> counter{0};
  name_ = "reviewer-image-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  std::string cmd = engine() + " create --name " + name_ +
                    " --init --read-only --tmpfs /tmp --tmpfs /var/tmp --tmpfs /run"
                    " --network none --cap-drop ALL --security-opt no-new-privileges"
                    " --userns auto:size=65536 --security-opt seccomp=" REVIEWER_SOURCE_DIR
                    "/docker/reviewer/seccomp.json"
                    " --user 0:0 --cap-add SETUID --cap-add SETGID --workdir /workspace";
  // Job `test` of ci.yml into main, as the host's engines write an assignment.
  reviewer::contract::Assignment assigned;
  assigned.workflow = ".github/workflows/ci.yml";
  assigned.job = "test";
  assigned.base = "main";
  for (const auto& entry : reviewer::contract::assignment_environment(assigned)) {
    cmd += " -e " + shell_quote(entry);
  }
  if (!workspace.empty()) {
    cmd += " -v " + shell_quote(workspace + ":/workspace");
  }
  cmd += " " + shell_quote(image) + " sleep infinity";
  auto created = run(cmd);
  start_output_ = created.output;
  if (created.exit_code != 0) {
    return;
  }
  if (!workspace.empty()) {
    // The clone belongs to the image's user as the host id the container's namespace maps it to.
    auto given = run(REVIEWER_SOURCE_DIR "/tests/support/give-clone-to-container.sh " + engine() +
                     " " + name_ + " " + shell_quote(workspace));
    start_output_ += given.output;
    if (given.exit_code != 0) {
      return;
    }
  }
  auto started = run(engine() + " start " + name_);
  start_output_ += started.output;
  started_ = started.exit_code == 0;
}

Sandbox::~Sandbox() { run(engine() + " rm -f " + name_ + " >/dev/null"); }

namespace {

Outcome exec_as(const std::string& name, const std::string& user,
                const std::vector<std::string>& argv) {
  std::string cmd = engine() + " exec --user " + user + " " + name;
  for (const auto& a : argv) {
    cmd += " " + shell_quote(a);
  }
  return run(cmd);
}

}  // namespace

Outcome Sandbox::exec(const std::vector<std::string>& argv) const {
  return exec_as(name_, "1000:1000", argv);
}

Outcome Sandbox::launch(const std::vector<std::string>& args) const {
  std::vector<std::string> argv = {"/opt/reviewer/bin/reviewer-launch"};
  argv.insert(argv.end(), args.begin(), args.end());
  return exec_as(name_, "0:0", argv);
}

}  // namespace reviewer::image_test

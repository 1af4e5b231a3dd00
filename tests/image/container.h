#pragma once

#include <string>
#include <vector>

namespace reviewer::image_test {

// What a shell command printed (stdout and stderr together) and how it exited.
struct Outcome {
  int exit_code = -1;
  std::string output;
  std::string last_line() const;
};

// Runs `command` under /bin/sh.
Outcome run(const std::string& command);

// Quotes `word` for /bin/sh.
std::string shell_quote(const std::string& word);

// The project's engine command (docker/reviewer/engine.sh: podman with runc, or docker).
std::string engine();

// localhost/<name>:latest, as docker/reviewer/build.sh tags a matrix image.
std::string tag(const std::string& name);

// Whether the engine has the matrix image `name`.
bool image_exists(const std::string& name);

// Why a test of image `name` cannot run (empty when it can): the image.build fixture was
// skipped, or the machine has no engine. Tests skip with this message, never pass silently.
std::string missing_image_reason(const std::string& name);

// How many containers (sandboxes and resolution containers) the `reviewer review` whose output is
// `review_output` left behind: those labelled with the host process its "review: host process
// PID:START" line names. Only that review's are counted, whatever else runs on the machine; -1
// when the output names no host process.
int containers_left_by(const std::string& review_output);

// One sandbox as the reviewer host creates it: the production flags (read-only root, tmpfs
// /tmp /var/tmp /run, no network, no capabilities but CAP_SETUID and CAP_SETGID, no new
// privileges, --init, PID 1 as root, workdir /workspace), the assignment in its creation
// environment, `sleep infinity`; removed on destruction.
class Sandbox {
 public:
  // `image` e.g. localhost/reviewer-node20-bun1310:latest; `workspace` a host directory
  // bind-mounted at /workspace, or empty. The assignment is job `test` of
  // .github/workflows/ci.yml into main.
  explicit Sandbox(const std::string& image, const std::string& workspace = "");
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  // Whether creating and starting it worked, and if not, what the engine said.
  bool started() const { return started_; }
  const std::string& start_output() const { return start_output_; }

  // `exec` of argv in the sandbox as the image's user.
  Outcome exec(const std::vector<std::string>& argv) const;
  // The launcher with `args`, exec'd as the host does: as root, which it gives up at once.
  Outcome launch(const std::vector<std::string>& args = {}) const;

 private:
  std::string name_;
  bool started_ = false;
  std::string start_output_;
};

}  // namespace reviewer::image_test

#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/exec/bash_command.h"
#include "core/exec/supervisor.h"

namespace reviewer::exec::testing {

// A scratch directory with a script writer, a log file and the CI command lines.
class Scratch {
 public:
  Scratch() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "reviewer-exec-XXXXXX").string();
    dir_ = ::mkdtemp(tmpl.data());
    log_ = ::open((dir_ + "/log").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  }
  ~Scratch() {
    ::close(log_);
    std::filesystem::remove_all(dir_);
  }
  const std::string& dir() const { return dir_; }
  int log_fd() const { return log_; }
  std::string log() const {
    std::ifstream in(dir_ + "/log");
    return std::string((std::istreambuf_iterator<char>(in)), {});
  }
  // A step spec running `script` as CI's default shell (`bash -e {0}`) or with `shell: bash`.
  StepSpec step(const std::string& script, bool pipefail = false) const {
    std::string path = dir_ + "/script-" + std::to_string(counter_++) + ".sh";
    std::ofstream(path) << script;
    StepSpec s;
    s.argv = *bash_command_line(pipefail ? "bash" : "", path);
    s.env = {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + dir_};
    s.cwd = dir_;
    s.label = "[step] ";
    return s;
  }

 private:
  std::string dir_;
  int log_ = -1;
  mutable int counter_ = 0;
};

// An external witness of death: a FIFO whose read end the test holds. Processes of a step open
// it for writing (and write one byte); read() returns end-of-file only once every one of them
// has closed it, that is, has died.
class Witness {
 public:
  explicit Witness(const std::string& dir) : path_(dir + "/witness") {
    ::mkfifo(path_.c_str(), 0600);
    fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  }
  ~Witness() { ::close(fd_); }
  const std::string& path() const { return path_; }
  // True when at least one writer wrote and every writer is gone.
  bool all_writers_gone() {
    char buf[256];
    for (;;) {
      ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n > 0) {
        seen_ += static_cast<std::size_t>(n);
        continue;
      }
      return n == 0 && seen_ > 0;
    }
  }

 private:
  std::string path_;
  int fd_ = -1;
  std::size_t seen_ = 0;
};

}  // namespace reviewer::exec::testing

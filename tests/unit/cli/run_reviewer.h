#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <utility>

namespace reviewer::cli::testing {

// Runs the built `reviewer` with `args` (a shell word list) as a host would, with `env`
// (NAME=VALUE words) added to its environment; its exit code (-1 if it did not exit) and its
// stdout and stderr together.
inline std::pair<int, std::string> run_reviewer(const std::string& args,
                                                const std::string& env = "") {
  const std::string cmd = "env " + env + " " REVIEWER_BINARY_DIR "/bin/reviewer " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) {
    return {-1, "popen failed"};
  }
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) {
    out.append(buf, n);
  }
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace reviewer::cli::testing

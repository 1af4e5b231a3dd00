// reviewer: the front end. `reviewer semver` runs here, in an executable that links libstdc++
// statically and loads no shared library but libc, so it starts in about the time of
// /bin/true; the full command line (reviewer-cli, beside this file) loads libgit2 and its
// TLS stack, 24 shared objects whose loading and relocation cost several milliseconds before
// main. Every other command is exec'd there with the same arguments.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "core/cli/semver_cli.h"
#include "core/report/exit_code.h"

int main(int argc, char** argv) {
  using reviewer::report::ExitCode;
  if (argc >= 2 && std::strcmp(argv[1], "semver") == 0) {
    try {
      return reviewer::cli::run_semver(std::vector<std::string>(argv + 2, argv + argc));
    } catch (const std::exception& e) {
      std::cerr << "reviewer: internal error: " << e.what() << "\n";
      return reviewer::report::to_int(ExitCode::kInternal);
    }
  }
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    std::cerr << "reviewer: cannot read /proc/self/exe: " << std::strerror(errno) << "\n";
    return reviewer::report::to_int(ExitCode::kInternal);
  }
  std::string full(self, static_cast<std::size_t>(n));
  full = full.substr(0, full.rfind('/') + 1) + "reviewer-cli";
  ::execv(full.c_str(), argv);
  std::cerr << "reviewer: cannot run " << full << ": " << std::strerror(errno) << "\n";
  return reviewer::report::to_int(ExitCode::kInternal);
}

// reviewer-launch: the in-sandbox launcher. Its whole argument surface is "no arguments" or
// `--self-check`; see core/launch/launcher.h.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "core/launch/launcher.h"
#include "core/report/exit_code.h"
#include "core/util/crypto_init.h"

int main(int argc, char** argv, char** envp) {
  reviewer::util::init_crypto();
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    return reviewer::launch::run_launcher(args, envp);
  } catch (const std::exception& e) {
    std::cout << "review-build-failed: internal error: " << e.what() << std::endl;
    return reviewer::report::to_int(reviewer::report::ExitCode::kInternal);
  }
}

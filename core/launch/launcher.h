#pragma once

#include <string>
#include <vector>

namespace reviewer::launch {

// reviewer-launch: builds /workspace as the sandbox's assignment says, or checks the image
// (`--self-check`). Prints the log, then exactly one final line: `review-build-ok`,
// `review-build-failed: ...` or `review-build-refused: RULE ...`. Returns the exit code
// (0 ok, 1 failed, 2 usage, 3 refused, 4 internal error).
int run_launcher(const std::vector<std::string>& args, char** caller_env);

}  // namespace reviewer::launch

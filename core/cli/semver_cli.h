#pragma once

#include <string>
#include <vector>

namespace reviewer::cli {

// `reviewer semver ARGS...`: npm semver's command line (bin/semver.js, semver 7.8) over
// core/resolve's port: prints the versions that satisfy every range, sorted, and returns the
// exit code (0 some matched, 1 none, 2 an option npm's CLI has that this one does not).
int run_semver(const std::vector<std::string>& args);

}  // namespace reviewer::cli

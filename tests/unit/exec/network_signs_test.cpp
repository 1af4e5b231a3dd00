// The signs of a network access in a failed step's output, from lines npm 11, yarn 1.22.22 and
// Node printed in a network namespace with only `lo` (`unshare -n`), and the lines that are not.
#include "core/exec/network_signs.h"

#include <gtest/gtest.h>

#include "core/exec/supervisor.h"
#include "tests/unit/exec/bash_steps.h"

namespace reviewer::exec {
namespace {

TEST(NetworkSigns, RealFailuresShowTheNetwork) {
  for (const char* line : {
           "npm error request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo "
           "EAI_AGAIN registry.npmjs.org",
           "npm error code EAI_AGAIN",
           "error Error: getaddrinfo EAI_AGAIN registry.yarnpkg.com",
           "error https://registry.yarnpkg.com/fsevents/-/fsevents-2.3.3.tgz: getaddrinfo "
           "EAI_AGAIN registry.yarnpkg.com",
           "Error: getaddrinfo ENOTFOUND github.com",
           "Error: connect ENETUNREACH 140.82.112.3:443",
           "Error: connect ECONNREFUSED 140.82.112.3:443",
           " ERR_PNPM_META_FETCH_FAIL  GET https://registry.npmjs.org/x: request to "
           "https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN",
       }) {
    EXPECT_TRUE(shows_network_access(line)) << line;
  }
}

TEST(NetworkSigns, LocalServicesAndOrdinaryFailuresDoNot) {
  for (const char* line : {
           "Error: connect ECONNREFUSED 127.0.0.1:5432",
           "Error: connect ECONNREFUSED ::1:6379",
           "connect ECONNREFUSED localhost:3000",
           "npm error code ENOTCACHED",
           "error Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`.",
           "# fail 1",
           "request to https://example.com is fine",
       }) {
    EXPECT_FALSE(shows_network_access(line)) << line;
  }
}

TEST(NetworkSigns, KeepsTheFirstSignBounded) {
  NetworkSigns signs;
  signs.see("npm error code E404");
  EXPECT_EQ(signs.first(), "");
  signs.see("npm error code EAI_AGAIN");
  signs.see("Error: getaddrinfo ENOTFOUND github.com");
  EXPECT_EQ(signs.first(), "npm error code EAI_AGAIN");
  NetworkSigns long_line;
  long_line.see(std::string(300, 'x') + " ENOTFOUND");
  EXPECT_EQ(long_line.first(), std::string(200, 'x'));  // the whole line is looked at
}

// Through the supervisor with real bash: the sign of npm's real output reaches the step's result,
// whichever stream it came on, and the step's exit status is untouched.
TEST(NetworkSigns, TheSupervisorReportsTheFirstSignOfAStep) {
  testing::Scratch s;
  Supervisor sup(s.log_fd(), {std::chrono::milliseconds(150), std::chrono::milliseconds(150)});
  auto r = sup.run(
      s.step("echo 'added 0 packages'\n"
             "echo 'npm error request to https://registry.npmjs.org/left-pad failed, reason: "
             "getaddrinfo EAI_AGAIN registry.npmjs.org' >&2\nexit 1\n"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.network_sign,
            "npm error request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo "
            "EAI_AGAIN registry.npmjs.org");
  auto quiet = sup.run(s.step("echo 'connect ECONNREFUSED 127.0.0.1:5432'\nexit 1\n"));
  EXPECT_EQ(quiet.network_sign, "");
}

}  // namespace
}  // namespace reviewer::exec

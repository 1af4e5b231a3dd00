// The launcher started as root gives root up for good: real setresuid and capget, in a forked
// child (the test process must stay root), which reports back through a pipe.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <exception>
#include <fstream>
#include <functional>
#include <string>

#include "core/launch/init_environment.h"
#include "core/launch/become_sandbox_user.h"
#include "tests/support/temp_dir.h"

namespace reviewer::launch {
namespace {

using ::testing::HasSubstr;

// Runs `body` in a child and returns what it wrote to its pipe.
std::string in_child(const std::function<std::string()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) {
    return "pipe failed";
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    // The child never returns into the test runner, whatever the body does.
    std::string out;
    try {
      out = body();
    } catch (const std::exception& e) {
      out = std::string("threw: ") + e.what();
    }
    (void)!::write(fds[1], out.data(), out.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) {
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return out;
}

std::string status_field(const std::string& name) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(name + ":", 0) == 0) {
      const auto value = line.find_first_not_of(" \t", name.size() + 1);
      return value == std::string::npos ? "" : line.substr(value);
    }
  }
  return "";
}

class SandboxUserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) {
      GTEST_SKIP() << "needs root: the launcher's start as root is what is tested";
    }
  }
};

TEST_F(SandboxUserTest, RootBecomesTheSandboxUserWithNothingLeft) {
  const std::string out = in_child([] {
    auto r = become_sandbox_user();
    if (!r) {
      return "refused: " + r.error().message;
    }
    return std::string(*r == StartedAs::kRoot ? "root" : "user") + " uid=" + status_field("Uid") +
           " gid=" + status_field("Gid") + " groups=" + status_field("Groups") +
           " prm=" + status_field("CapPrm") + " eff=" + status_field("CapEff") +
           " amb=" + status_field("CapAmb") + " nnp=" + status_field("NoNewPrivs") +
           " dumpable=" + std::to_string(::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0)) +
           // Root is gone for good: the saved uid is not 0, so there is no way back.
           " back=" + std::to_string(::setuid(0));
  });
  EXPECT_EQ(out,
            "root uid=1000\t1000\t1000\t1000 gid=1000\t1000\t1000\t1000 groups= "
            "prm=0000000000000000 eff=0000000000000000 amb=0000000000000000 nnp=1 dumpable=0 "
            "back=-1");
}

TEST_F(SandboxUserTest, ALauncherStartedAsAnotherUserStaysWhoItIs) {
  const std::string out = in_child([] {
    if (::setresgid(1234, 1234, 1234) != 0 || ::setresuid(1234, 1234, 1234) != 0) {
      return std::string("setup failed");
    }
    auto r = become_sandbox_user();
    if (!r) {
      return "refused: " + r.error().message;
    }
    return std::string(*r == StartedAs::kRoot ? "root" : "user") + " uid=" + status_field("Uid");
  });
  EXPECT_EQ(out, "user uid=1234\t1234\t1234\t1234");
}

// The hostile host layout: root without CAP_SETUID cannot change user, and the launcher must not
// go on as root.
TEST_F(SandboxUserTest, RootWithoutTheCapabilitiesIsRefusedByName) {
  const std::string out = in_child([] {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = {};
    if (::syscall(SYS_capset, &header, none) != 0) {
      return std::string("setup failed");
    }
    auto r = become_sandbox_user();
    if (r) {
      return std::string("became ") + (*r == StartedAs::kRoot ? "root" : "user");
    }
    return r.error().rule + ": " + r.error().message + " uid=" + std::to_string(::geteuid());
  });
  EXPECT_THAT(out, HasSubstr("launcher-user: the launcher was started as root and could not "
                             "become the sandbox user (uid 1000): setgroups: Operation not "
                             "permitted; the host starts it with CAP_SETUID and CAP_SETGID"));
  EXPECT_THAT(out, HasSubstr(" uid=0"));
}

// What makes the layout work: PID 1's environment, opened as root, is still read through the
// same descriptor after root is given up, while opening it again is denied.
TEST_F(SandboxUserTest, TheInitEnvironmentOpenedAsRootIsReadAfterTheChange) {
  test_support::TempDir dir;
  const std::string path = dir / "environ";
  std::ofstream(path, std::ios::binary) << std::string("REVIEWER_CI_JOB=test") + '\0';
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  const std::string out = in_child([&] {
    auto init = InitEnvironment::open(path);
    if (!init) {
      return "open: " + init.error().message;
    }
    if (auto r = become_sandbox_user(); !r) {
      return "refused: " + r.error().message;
    }
    auto block = init->read();
    auto again = InitEnvironment::open(path);
    return std::string(block ? *block : "unread: " + block.error().message) + "|" +
           (again ? std::string("reopened") : again.error().rule + ": " + again.error().message);
  });
  EXPECT_THAT(out, HasSubstr(std::string("REVIEWER_CI_JOB=test") + '\0' +
                             "|assignment-missing: "
                             "cannot read the "
                             "container init's "
                             "environment"));
  EXPECT_THAT(out, HasSubstr("Permission denied (PID 1 runs as another user than the launcher; "
                             "the host starts the launcher as root"));
}

}  // namespace
}  // namespace reviewer::launch

// The run model's sandbox maps its ids 0 to 65533 onto a range of its own, so the host's
// install, owned by the host's root, shows as the overflow uid 65534, which no process inside can
// be: plugins owned that way are as safe as root's. Where 65534 is an id of the namespace (a
// mapping of all 65,536), a file of that owner is refused as before.
#include "core/plugins/file_checks.h"

#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace reviewer::plugins {
namespace {

// Runs the ownership check on a host-root file in a child in a new user namespace whose uid map
// (written by this process, root on the host) is "0 BASE COUNT"; the child's exit status: 0 when
// accepted, 1 when refused, 2 when the file did not show as 65534.
int check_in_namespace(unsigned count) {
  int ready[2];
  int go[2];
  if (::pipe(ready) != 0 || ::pipe(go) != 0) {
    return -1;
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    char byte = 0;
    if (::unshare(CLONE_NEWUSER) != 0) {
      ::_exit(3);
    }
    (void)!::write(ready[1], "x", 1);
    (void)!::read(go[0], &byte, 1);
    // The launcher's user, an id of the namespace (the child's own host root is not one).
    if (::setresuid(1000, 1000, 1000) != 0) {
      ::_exit(4);
    }
    struct stat st {};
    if (::stat("/etc/passwd", &st) != 0 || st.st_uid != 65534) {
      ::_exit(2);
    }
    st.st_mode &= ~static_cast<mode_t>(S_IWGRP | S_IWOTH);
    ::_exit(check_ownership(st, "/etc/passwd", "plugin-permissions") ? 0 : 1);
  }
  char byte = 0;
  (void)!::read(ready[0], &byte, 1);
  std::ofstream("/proc/" + std::to_string(pid) + "/uid_map") << "0 2000000000 " << count << "\n";
  (void)!::write(go[1], "x", 1);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(UnmappedOwner, AHostRootFileIsTrustedOnlyWhereItsOverflowOwnerIsNobodyInside) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "writing another namespace's uid map needs root";
  }
  EXPECT_EQ(check_in_namespace(65534), 0);
  // 65534 is an id of the namespace: a file shown as its is refused.
  EXPECT_EQ(check_in_namespace(65536), 1);
  // On the host, 65534 is an ordinary id that a process may hold.
  EXPECT_FALSE(unmapped_owner(65534));
}

}  // namespace
}  // namespace reviewer::plugins

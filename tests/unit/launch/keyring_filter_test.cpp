// The isolation issue's finding 2: podman's default seccomp profile allows keyctl, so a step read
// a key of its uid's user keyring, carried state in the name of a session keyring it joined, and
// job `lint` left a key that job `test` read. The launcher now denies every keyring call to itself
// and its steps, in all three of the kernel's x86 call tables, and refuses a key that appears
// between jobs. Every attack runs in a forked child, so the filter never reaches the test runner.
#include "core/launch/keyring_filter.h"

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <functional>

#include <gtest/gtest.h>

namespace reviewer::launch {
namespace {

constexpr long kKeySpecSessionKeyring = -3;
constexpr long kKeySpecUserKeyring = -4;
constexpr long kKeyctlGetKeyringId = 0;
constexpr long kKeyctlJoinSessionKeyring = 1;
constexpr long kKeyctlRead = 11;
constexpr long kX32Bit = 0x40000000L;

// What `body` returns in a forked child (its exit status, 0 to 255; 255 when it died).
int in_child(const std::function<int()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::_exit(body());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

// The errno of a call that failed, 0 when it succeeded.
int error_of(long result) { return result < 0 ? errno : 0; }

long add_session_key(const char* description) {
  return ::syscall(SYS_add_key, "user", description, "payload", 7, kKeySpecSessionKeyring);
}

// A keyring call through the i386 table (int 0x80), as a 32-bit program in the sandbox makes it.
long keyctl_i386(long operation, long id) {
  long result = 0;
  asm volatile("int $0x80" : "=a"(result) : "a"(288), "b"(operation), "c"(id), "d"(0) : "memory");
  if (result < 0 && result > -4096) {
    errno = static_cast<int>(-result);
    return -1;
  }
  return result;
}

TEST(KeyringFilter, EveryKeyringCallFailsWithEpermOnceTheFilterIsOn) {
  // The control: without the filter the calls reach the kernel (a fresh session keyring first, so
  // the test runner's own keyrings are never touched).
  ASSERT_EQ(in_child([] {
              if (::syscall(SYS_keyctl, kKeyctlJoinSessionKeyring, nullptr) < 0) {
                return 1;
              }
              return add_session_key("reviewer-test") > 0 ? 0 : 2;
            }),
            0);
  EXPECT_EQ(in_child([] {
              if (::syscall(SYS_keyctl, kKeyctlJoinSessionKeyring, nullptr) < 0) {
                return 1;
              }
              if (!deny_kernel_keyrings()) {
                return 2;
              }
              const long payload[4] = {};
              const int errors[] = {
                  error_of(add_session_key("reviewer-test")),
                  error_of(::syscall(SYS_request_key, "user", "x", nullptr, 0)),
                  error_of(::syscall(SYS_keyctl, kKeyctlGetKeyringId, kKeySpecUserKeyring, 0)),
                  error_of(::syscall(SYS_keyctl, kKeyctlRead, kKeySpecUserKeyring, payload, 32)),
                  error_of(::syscall(SYS_keyctl, kKeyctlJoinSessionKeyring, "carried-state")),
                  error_of(::syscall(kX32Bit | SYS_keyctl, kKeyctlGetKeyringId, -4, 0)),
              };
              int failed = 0;
              for (int e : errors) {
                failed += e == EPERM ? 0 : 1;
              }
              // Other calls still work.
              return failed == 0 && ::getpid() > 0 ? 0 : 10 + failed;
            }),
            0);
}

// Only where the kernel takes 32-bit calls at all (IA32 emulation; this machine's kernel has
// none, and int 0x80 then ends the process).
TEST(KeyringFilter, TheI386TableIsDeniedToo) {
  if (in_child([] {
        return keyctl_i386(kKeyctlGetKeyringId, kKeySpecUserKeyring) >= -1 ? 0 : 1;
      }) == 255) {
    GTEST_SKIP() << "this kernel takes no i386 system calls (no IA32 emulation)";
  }
  EXPECT_EQ(in_child([] {
              if (::syscall(SYS_keyctl, kKeyctlJoinSessionKeyring, nullptr) < 0 ||
                  !deny_kernel_keyrings()) {
                return 1;
              }
              return error_of(keyctl_i386(kKeyctlGetKeyringId, kKeySpecUserKeyring)) == EPERM ? 0
                                                                                              : 2;
            }),
            0);
}

TEST(KeyringFilter, AKeyThatAppearsAfterTheBaselineIsRefusedByName) {
  EXPECT_EQ(in_child([] {
              if (::syscall(SYS_keyctl, kKeyctlJoinSessionKeyring, nullptr) < 0) {
                return 1;
              }
              auto baseline = visible_kernel_keys();
              if (!baseline || baseline->empty()) {
                return 2;  // the session keyring just joined is listed
              }
              if (!check_no_new_kernel_keys(*baseline)) {
                return 3;
              }
              if (add_session_key("left-by-lint") < 0) {
                return 4;
              }
              auto after = check_no_new_kernel_keys(*baseline);
              return !after && after.error().rule == "cleanup-failed" ? 0 : 5;
            }),
            0);
}

}  // namespace
}  // namespace reviewer::launch

#include "core/launch/become_sandbox_user.h"

#include <grp.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace reviewer::launch {
namespace {

util::Refusal cannot(const std::string& what) {
  return util::refusal("launcher-user",
                       "the launcher was started as root and could not become the sandbox user "
                       "(uid " +
                           std::to_string(contract::kSandboxUid) + "): " + what +
                           "; the host starts it with CAP_SETUID and CAP_SETGID (docs/host.md)");
}

util::Refusal failed(const char* call) {
  return cannot(std::string(call) + ": " + std::strerror(errno));
}

// Every capability set of this thread is empty.
bool holds_no_capability() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
  if (::syscall(SYS_capget, &header, data) != 0) {
    return false;
  }
  for (const auto& d : data) {
    if (d.effective != 0 || d.permitted != 0 || d.inheritable != 0) {
      return false;
    }
  }
  return true;
}

}  // namespace

util::Result<StartedAs> become_sandbox_user() {
  uid_t ruid = 0, euid = 0, suid = 0;
  ::getresuid(&ruid, &euid, &suid);
  if (ruid != 0 && euid != 0 && suid != 0) {
    return StartedAs::kSandboxUser;
  }
  // Groups first: once the uid is no longer 0, CAP_SETGID is gone.
  if (::setgroups(0, nullptr) != 0) {
    return failed("setgroups");
  }
  if (::setresgid(contract::kSandboxGid, contract::kSandboxGid, contract::kSandboxGid) != 0) {
    return failed("setresgid");
  }
  if (::setresuid(contract::kSandboxUid, contract::kSandboxUid, contract::kSandboxUid) != 0) {
    return failed("setresuid");
  }
  // The kernel clears the capability sets when the last uid 0 goes; check that it did, and that
  // every id is the sandbox user's, rather than trust the calls above.
  gid_t rgid = 0, egid = 0, sgid = 0;
  ::getresuid(&ruid, &euid, &suid);
  ::getresgid(&rgid, &egid, &sgid);
  if (ruid != contract::kSandboxUid || euid != contract::kSandboxUid ||
      suid != contract::kSandboxUid || rgid != contract::kSandboxGid ||
      egid != contract::kSandboxGid || sgid != contract::kSandboxGid ||
      ::getgroups(0, nullptr) != 0) {
    return cannot("its user and group ids are not the sandbox user's after the change");
  }
  if (!holds_no_capability()) {
    return cannot("it still holds capabilities after the change");
  }
  // No step regains root through a set-user-ID file or file capabilities, whatever the host
  // set; and the credential change must not leave the launcher readable by its steps.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    return failed("prctl(PR_SET_NO_NEW_PRIVS)");
  }
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  return StartedAs::kRoot;
}

}  // namespace reviewer::launch

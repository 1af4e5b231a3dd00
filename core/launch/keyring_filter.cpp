#include "core/launch/keyring_filter.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <vector>

namespace reviewer::launch {
namespace {

// System-call numbers of add_key, request_key and keyctl, per table (asm/unistd_{64,x32,32}.h).
// The x32 table is the 64-bit one with bit 30 set, reached with the x86-64 audit arch.
constexpr unsigned kX32Bit = 0x40000000u;
constexpr unsigned kKeyCalls64[] = {248, 249, 250};
constexpr unsigned kKeyCalls32[] = {286, 287, 288};

// The filter, laid out as:
//   load arch; x86-64? else -> i386
//   load nr; each of the 64-bit and x32 numbers -> deny; -> allow
//   i386: i386? else -> allow; load nr; each of the 32-bit numbers -> deny
//   allow; deny (EPERM, as Docker's profile answers)
// Any other arch (none reaches an x86-64 kernel) is allowed.
std::vector<sock_filter> program() {
  constexpr unsigned kArch = offsetof(seccomp_data, arch);
  constexpr unsigned kNr = offsetof(seccomp_data, nr);
  std::vector<unsigned> x86_64;
  for (unsigned nr : kKeyCalls64) {
    x86_64.push_back(nr);
    x86_64.push_back(nr | kX32Bit);
  }
  const std::size_t i386_at = 3 + x86_64.size() + 1;
  const std::size_t allow_at = i386_at + 2 + std::size(kKeyCalls32);
  const std::size_t deny_at = allow_at + 1;
  std::vector<sock_filter> p;
  // A jump's offsets count from the next instruction.
  const auto to = [&p](std::size_t target) {
    return static_cast<unsigned char>(target - (p.size() + 1));
  };
  p.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArch));
  p.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, to(i386_at)));
  p.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kNr));
  for (unsigned nr : x86_64) {
    p.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, to(deny_at), 0));
  }
  p.push_back(BPF_STMT(BPF_JMP | BPF_JA, static_cast<unsigned>(to(allow_at))));
  p.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 0, to(allow_at)));
  p.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kNr));
  for (unsigned nr : kKeyCalls32) {
    p.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, to(deny_at), 0));
  }
  p.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  p.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)));
  return p;
}

util::Refusal cannot(const char* call) {
  return util::refusal("keyring-filter", std::string("the launcher could not deny the kernel's "
                                                     "keyring calls to its steps: ") +
                                             call + ": " + std::strerror(errno));
}

}  // namespace

util::Result<std::set<std::string>> visible_kernel_keys() {
  std::ifstream in("/proc/keys");
  if (!in) {
    return util::refusal("cleanup-failed",
                         "the kernel's key list /proc/keys cannot be read, so a key a job left for "
                         "the next could not be seen");
  }
  std::set<std::string> serials;
  for (std::string line; std::getline(in, line);) {
    serials.insert(line.substr(0, line.find(' ')));
  }
  return serials;
}

util::Status check_no_new_kernel_keys(const std::set<std::string>& baseline) {
  auto now = visible_kernel_keys();
  if (!now) {
    return now.refusals();
  }
  for (const auto& serial : *now) {
    if (baseline.count(serial) == 0) {
      return util::refusal("cleanup-failed",
                           "a kernel key (serial " + serial +
                               ") appeared during the job, where a fresh runner would have none; "
                               "it cannot be removed, so no later job may run");
    }
  }
  return util::ok_status();
}

util::Status deny_kernel_keyrings() {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    return cannot("prctl(PR_SET_NO_NEW_PRIVS)");
  }
  std::vector<sock_filter> p = program();
  sock_fprog prog{static_cast<unsigned short>(p.size()), p.data()};
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) {
    return cannot("prctl(PR_SET_SECCOMP)");
  }
  return util::ok_status();
}

}  // namespace reviewer::launch

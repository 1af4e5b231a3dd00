#pragma once

#include <string>

#include "core/launch/read_assignment.h"
#include "core/util/result.h"

namespace reviewer::launch {

// Whether a step could rewrite the assignment the launcher reads from PID 1's environment
// (docs/threat-model.md, issue 14 finding 7): without Yama, a process of PID 1's user writes its
// memory through /proc/1/mem or ptrace. Tried for real, from a child with exactly a step's
// credentials (the launcher's uid and groups, no capabilities, no_new_privs); nothing is written.
struct IntegrityProbe {
  bool mem_writable = false;  // open("/proc/1/mem", O_RDWR) succeeded
  bool ptrace_seize = false;  // PTRACE_SEIZE of PID 1 succeeded (detached at once)
  bool probed = false;        // the child could be started and reported
  bool is_protected() const { return probed && !mem_writable && !ptrace_seize; }
  // "protected", or "unprotected (/proc/1/mem writable, ptrace attach)", or "unknown (...)".
  std::string describe() const;
};

IntegrityProbe probe_assignment_integrity();

// After the build: PID 1's environment, read again through the descriptor opened at the start,
// must still hold the assignment the build ran. Refusal `assignment-changed` naming what differs
// (a step rewrote PID 1's memory), or the error of reading it again.
util::Status check_assignment_unchanged(const contract::Assignment& at_start,
                                        const InitEnvironment& init);

}  // namespace reviewer::launch

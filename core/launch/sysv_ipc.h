#pragma once

#include <set>
#include <string>
#include <utility>

#include "core/util/result.h"

namespace reviewer::launch {

// The System V IPC objects of the sandbox's IPC namespace (shared memory segments, semaphore
// sets, message queues), which live in no directory: a job that leaves one (`ipcmk -M 4096`)
// hands state to the next, where GitHub would give a fresh runner. Only the objects the
// launcher's user owns or created count (every step runs as that user). Each is identified by
// its kind ("shm", "sem", "msg") and id, as /proc/sysvipc lists them.
class SysvIpc {
 public:
  using Object = std::pair<std::string, int>;

  // Records what /proc/sysvipc lists now as the baseline (a fresh sandbox has none).
  static util::Result<SysvIpc> record();
  // Removes (IPC_RMID) every object not in the baseline. An object that vanished meanwhile is
  // not an error; one that cannot be removed is (cleanup-failed). A segment still attached goes
  // when its last user does; every process of the job is dead by then.
  util::Status sweep() const;

  // Every object of the launcher's user /proc/sysvipc lists; cleanup-failed when it cannot be read.
  static util::Result<std::set<Object>> list();

 private:
  explicit SysvIpc(std::set<Object> baseline) : baseline_(std::move(baseline)) {}
  std::set<Object> baseline_;
};

}  // namespace reviewer::launch

#include "core/launch/sysv_ipc.h"

#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

#include "core/util/file_read.h"

namespace reviewer::launch {
namespace {

constexpr const char* kKinds[] = {"shm", "sem", "msg"};

util::Refusal ipc_error(const std::string& what) {
  return util::refusal("cleanup-failed", what + ": " + std::strerror(errno));
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) {
    out.push_back(w);
  }
  return out;
}

}  // namespace

util::Result<std::set<SysvIpc::Object>> SysvIpc::list() {
  std::set<Object> out;
  for (const char* kind : kKinds) {
    const std::string path = std::string("/proc/sysvipc/") + kind;
    auto text = util::read_regular_file(AT_FDCWD, path, {.max_bytes = 4 << 20});
    if (!text) {
      // A kernel without System V IPC has nothing to leave behind.
      if (util::file_fault(text.error()) == util::FileFault::kMissing) {
        continue;
      }
      return util::refusal("cleanup-failed", "cannot read " + path + ": " + text.error().message);
    }
    std::istringstream lines(*text);
    std::string line;
    std::getline(lines, line);
    // The header names the columns: "key shmid perms ... uid gid cuid cgid ...".
    const std::vector<std::string> header = words(line);
    const auto column = [&](const std::string& name) {
      return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) -
                                      header.begin());
    };
    const std::size_t uid_at = column("uid");
    const std::size_t cuid_at = column("cuid");
    const std::string me = std::to_string(::geteuid());
    while (std::getline(lines, line)) {
      const std::vector<std::string> row = words(line);
      // The launcher's user's objects, by owner or creator: the only ones it may remove, and
      // the only ones a step (running as that user) can have made.
      const bool mine = (uid_at < row.size() && row[uid_at] == me) ||
                        (cuid_at < row.size() && row[cuid_at] == me);
      if (row.size() > 1 && mine) {
        out.insert({kind, std::atoi(row[1].c_str())});
      }
    }
  }
  return out;
}

util::Result<SysvIpc> SysvIpc::record() {
  auto now = list();
  if (!now) {
    return now.error();
  }
  return SysvIpc(std::move(*now));
}

util::Status SysvIpc::sweep() const {
  auto now = list();
  if (!now) {
    return now.error();
  }
  for (const auto& [kind, id] : *now) {
    if (baseline_.contains({kind, id})) {
      continue;
    }
    int rc = 0;
    if (kind == "shm") {
      rc = ::shmctl(id, IPC_RMID, nullptr);
    } else if (kind == "sem") {
      rc = ::semctl(id, 0, IPC_RMID);
    } else {
      rc = ::msgctl(id, IPC_RMID, nullptr);
    }
    if (rc != 0 && errno != EINVAL && errno != EIDRM) {
      return ipc_error("cannot remove the System V " + kind + " object " + std::to_string(id) +
                       " an earlier job left");
    }
  }
  return util::ok_status();
}

}  // namespace reviewer::launch

#include "core/exec/process_table.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "core/util/unique_fd.h"

namespace reviewer::exec {
namespace {

// Parses /proc/<pid>/stat: "pid (comm) state ppid pgrp ...". comm may hold spaces and parens,
// so fields are read after the last ')'.
bool read_stat(pid_t pid, pid_t& ppid, pid_t& pgid, std::string& comm) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  util::UniqueFd fd(::open(path, O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) {
    return false;
  }
  char buf[1024];
  ssize_t n = ::read(fd.get(), buf, sizeof buf - 1);
  if (n <= 0) {
    return false;
  }
  buf[n] = 0;
  char* open = std::strchr(buf, '(');
  char* close = std::strrchr(buf, ')');
  if (open == nullptr || close == nullptr || close < open) {
    return false;
  }
  comm.assign(open + 1, close);
  int p = 0;
  int g = 0;
  char state = 0;
  if (std::sscanf(close + 1, " %c %d %d", &state, &p, &g) != 3) {
    return false;
  }
  ppid = p;
  pgid = g;
  return true;
}

}  // namespace

std::vector<ProcessInfo> children_of(pid_t parent) {
  std::vector<ProcessInfo> out;
  DIR* dir = ::opendir("/proc");
  if (dir == nullptr) {
    return out;
  }
  while (dirent* e = ::readdir(dir)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end != 0 || pid <= 0) {
      continue;
    }
    pid_t ppid = 0;
    pid_t pgid = 0;
    std::string comm;
    if (read_stat(static_cast<pid_t>(pid), ppid, pgid, comm) && ppid == parent) {
      out.push_back({static_cast<pid_t>(pid), pgid, comm});
    }
  }
  ::closedir(dir);
  return out;
}

}  // namespace reviewer::exec

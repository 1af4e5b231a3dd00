#include "core/launch/job_dirs.h"

#include <sys/stat.h>

#include <fmt/format.h>
#include <cerrno>

namespace reviewer::launch {

bool make_dir(const std::string& path) {
  return ::mkdir(path.c_str(), 0700) == 0 || errno == EEXIST;
}

// The planner refuses ids GitHub rejects, but the path does not rely on it.
exec::JobDirs make_job_dirs(const std::string& root, std::size_t n) {
  exec::JobDirs d;
  d.root = fmt::format("{}/job-{}", root, n);
  d.home = d.root + "/home";
  d.tmp = d.root + "/tmp";
  d.cache = d.root + "/cache";
  d.runner_temp = d.root + "/runner-temp";
  for (const auto* p : {&d.root, &d.home, &d.tmp, &d.cache, &d.runner_temp}) {
    make_dir(*p);
  }
  make_dir(d.root + "/steps");
  return d;
}

}  // namespace reviewer::launch

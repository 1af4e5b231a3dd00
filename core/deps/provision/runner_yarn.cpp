// The runner's yarn for a job: unpacked from the view's verified tarball into the job's scratch.
#include "core/deps/provision/runner_yarn.h"

#include <sys/stat.h>

#include "core/contract/view_layout.h"
#include "core/deps/provision/view_unpack.h"

namespace reviewer::deps {
namespace {

bool is_dir(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string yarn_offline_mirror(const std::string& view) {
  const std::string dir = view + "/" + contract::kYarnMirrorDir;
  return !view.empty() && is_dir(dir) ? dir : "";
}

util::Result<std::string> unpack_runner_yarn(const std::string& view, const std::string& into) {
  // Where the host placed it (deps::package_manager_view_path).
  const std::string tarball =
      view + "/" + contract::kPackageManagerDir + "/yarn-" + contract::kRunnerYarnVersion + ".tgz";
  struct stat st {};
  if (view.empty() || ::lstat(tarball.c_str(), &st) != 0) {
    return std::string();
  }
  if (!S_ISREG(st.st_mode)) {
    return unpack_error(tarball + " is not a regular file; yarn is not put on PATH");
  }
  if (auto unpacked =
          unpack_package(tarball, into, std::string("yarn ") + contract::kRunnerYarnVersion);
      !unpacked) {
    return unpacked.refusals();
  }
  if (::lstat((into + "/bin/yarn.js").c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return unpack_error(tarball + " holds no bin/yarn.js; yarn is not put on PATH");
  }
  return into + "/bin";
}

}  // namespace reviewer::deps

#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/deps/provision/loopback_registry.h"
#include "core/deps/provision/tool_settings.h"
#include "core/exec/step_environment.h"
#include "core/plugins/invoke.h"
#include "core/util/result.h"

// The sandbox's side of dependencies, behind one interface: the job loop asks for each job's
// provision and knows no package manager. For the build it finds the view the host mounted
// (contract::kDependencyMount) and serves its registry on the loopback; for each job it seeds
// the caches in the job's scratch (npm, Bun, corepack), makes npm's global prefix and unpacks the
// runner's yarn, and says what the job's steps get of it.
namespace reviewer::deps {

// What one job's steps get: their package managers' settings, and directories for their PATH.
struct JobProvision {
  ToolSettings settings;
  std::vector<std::string> path_first;  // before the image's runtimes (npm's global prefix)
  std::vector<std::string> path_last;   // after them (the runner's yarn)
};

class Provisioner {
 public:
  using Log = std::function<void(const std::string& line)>;

  // The build's provisioning over the view at `view` ("" when the host mounted none: see
  // find_dependency_view), the image's corepack (its corepack.cjs, "" for none) and the plan's
  // pins (which registry pnpm is given). The loopback registry runs from here until the
  // provisioner is destroyed; one that cannot start is logged, and an install that needs it then
  // fails as it would offline.
  Provisioner(std::string view, std::string corepack, const std::vector<plugins::RuntimePin>& pins,
              Log log);
  Provisioner(const Provisioner&) = delete;
  Provisioner& operator=(const Provisioner&) = delete;

  // Provisions the job whose scratch is `dirs`. Refused (the job does not start) when the view's
  // npm cache cannot be copied into the job's; what else fails is logged, and the tool is then
  // missing as it would be on a runner without it.
  util::Result<JobProvision> prepare(const exec::JobDirs& dirs);

 private:
  std::string global_prefix(const exec::JobDirs& dirs, JobProvision& job);

  std::string view_;
  std::string corepack_;
  std::unique_ptr<LoopbackRegistry> http_;
  std::string http_url_;
  std::string npm_registry_;
  Log log_;
};

// The dependency view the host mounted, if it did: a real directory holding an npm cache at
// contract::kDependencyMount (the root is read-only, so nothing in the sandbox can have made
// it); "" otherwise.
std::string find_dependency_view();

}  // namespace reviewer::deps

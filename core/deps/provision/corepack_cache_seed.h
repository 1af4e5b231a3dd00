#pragma once

#include <string>
#include <vector>

#include "core/util/result.h"

// corepack's cache in a job as CI's corepack fills it: the releases package.json's
// packageManager names, which CI downloads at the step that first runs them. docs/fidelity.md,
// "corepack".
namespace reviewer::deps {

// Fills corepack's cache `home` ($XDG_CACHE_HOME/node/corepack, where corepack looks without
// COREPACK_HOME) from `view`/contract::kCorepackList: each release's registry tarball, verified by
// the host, unpacked with /bin/tar inside the sandbox into `v1/<name>/<version>`, with the
// `.corepack` record corepack writes after its own download (locator, bins, hash), so corepack
// reuses it instead of downloading. Returns "name@version" for each; none when the view has no
// list. Error `dependency-unpack` naming the first line or release that could not be used; the
// caller logs it, and corepack then fails offline as it would without the network.
util::Result<std::vector<std::string>> seed_corepack_cache(const std::string& view,
                                                           const std::string& home);

}  // namespace reviewer::deps

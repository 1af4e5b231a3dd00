#pragma once

#include <string>

#include "core/launch/image_info.h"
#include "core/plan/plan.h"
#include "core/report/refusal.h"
#include "core/resolve/runtime_table.h"
#include "core/util/result.h"

namespace reviewer::launch {

// Resolves the worktree's Node/Bun declarations and the plan's pins against the trusted matrix
// and refuses unless they select exactly this image (other-image naming both) or when they
// select none, several or conflict (the resolver's rules).
util::Status check_runtime_resolution(const std::string& worktree, const plan::Plan& plan,
                                      const ImageInfo& image, const resolve::RuntimeTable& matrix);

// Reads the trusted matrix from the data directory (`<data dir>/runtime-matrix.json`); its
// errors (invalid-matrix) become a refusal.
util::Result<resolve::RuntimeTable> load_trusted_matrix();

}  // namespace reviewer::launch

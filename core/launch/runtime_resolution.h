#pragma once

#include <string>

#include "core/launch/image_info.h"
#include "core/plan/plan.h"
#include "core/report/refusal.h"

namespace reviewer::launch {

// Resolves the worktree's Node/Bun declarations and the plan's pins against the trusted matrix
// (`<data dir>/runtime-matrix.json`) and refuses unless they select exactly this image
// (other-image naming both) or when they select none, several or conflict (the resolver's rules).
report::Refusals check_runtime_resolution(const std::string& worktree, const plan::Plan& plan,
                                          const ImageInfo& image);

}  // namespace reviewer::launch

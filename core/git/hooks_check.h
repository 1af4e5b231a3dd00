#pragma once

#include <string>

#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::git {

// `git-hooks` refusals for the hooks directory `hooks_dir`: it may be absent or a real
// directory holding only regular files named `*.sample` (what a clone copies from the
// template). A symlinked hooks directory, a subdirectory, a symlink or any other name is
// refused, one refusal per entry. Never follows links.
util::Status check_hooks(const std::string& hooks_dir);

}  // namespace reviewer::git

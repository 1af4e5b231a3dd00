#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>

#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::plugins {

// A refusal if `st` (from lstat of `path`) is writable by anyone but its owner, or owned by
// someone other than root or the current user. `what` is "plugin" or "plugin directory".
util::Status check_ownership(const struct stat& st, const std::string& path,
                             const std::string& rule);

}  // namespace reviewer::plugins

#pragma once

#include <string>
#include <string_view>

#include "core/deps/npm_lock.h"
#include "core/util/result.h"
#include "core/yaml/node.h"

namespace reviewer::deps {

// A YAML lock file (pnpm-lock.yaml, yarn 2+'s yarn.lock) through the bounded loader within
// `bounds`, quoted keys allowed (both quote every key that starts with '@' or holds a ':'): its
// top-level mapping, or `dependency-lock-invalid` ("<file> is not YAML <tool> writes: ...", "<file>
// is not a YAML mapping").
util::Result<yaml::Node> load_lock_yaml(std::string_view text, const std::string& file,
                                        const LockBounds& bounds, const std::string& tool);

}  // namespace reviewer::deps

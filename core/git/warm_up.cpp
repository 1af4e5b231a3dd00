#include "core/git/warm_up.h"

#include "core/git/git_handles.h"

namespace reviewer::git {

Libgit2WarmUp::Libgit2WarmUp() : thread_([] { detail::ensure_libgit2(); }) {}

Libgit2WarmUp::~Libgit2WarmUp() { thread_.join(); }

}  // namespace reviewer::git

#pragma once

#include "core/fetch/npm_lock.h"

namespace reviewer::fetch {

// Whether npm installs `p` in the review images (linux, x64, glibc), by npm-install-checks'
// rules: an `os`/`cpu`/`libc` list admits the platform when it names it, or when it only
// excludes others (`!win32`); an empty list admits every platform. An optional package that
// fails is skipped by npm ci, so it is not fetched; a required one is fetched and npm ci fails
// with EBADPLATFORM in the sandbox, as on CI.
bool installs_here(const LockedPackage& p);

}  // namespace reviewer::fetch

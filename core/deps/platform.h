#pragma once

#include <string_view>

#include "core/deps/npm_lock.h"

namespace reviewer::deps {

// Whether npm installs `p` in the review images (linux, x64, glibc), by npm-install-checks'
// rules: an `os`/`cpu`/`libc` list admits the platform when it names it, or when it only
// excludes others (`!win32`); an empty list admits every platform. An optional package that
// fails is skipped by npm ci, so it is not fetched; a required one is fetched and npm ci fails
// with EBADPLATFORM in the sandbox, as on CI.
bool installs_here(const LockedPackage& p);

// Whether yarn 2+ installs a package of Berry's `conditions` ("os=linux & cpu=x64 & libc=glibc",
// with `|` and parentheses) here. One this reader does not understand counts as met: fetching a
// package yarn then skips costs a download, skipping one it needs fails the install.
bool berry_conditions_met(std::string_view conditions);

}  // namespace reviewer::deps

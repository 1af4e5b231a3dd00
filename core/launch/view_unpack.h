#pragma once

#include <string>

#include "core/util/result.h"

// Reading what the host placed in the review's dependency view (fetch/mount.h), inside the
// sandbox: the view is read-only and its tarballs were verified by the host, but the lists that
// name them are text the launcher joins to directories, so each path is checked first.
namespace reviewer::launch {

// A plain relative path of the characters package names, versions and the store use, never
// `..` and never absolute.
bool plain_relative(const std::string& path);

// Makes `into` and unpacks the npm tarball `tarball` (one top folder, usually `package/`) into
// it with /bin/tar, the top folder stripped, owned by the sandbox user. Error `dependency-unpack`
// naming `what`.
util::Status unpack_package(const std::string& tarball, const std::string& into,
                            const std::string& what);

}  // namespace reviewer::launch

#pragma once

#include <cstdint>
#include <string>

#include "core/util/result.h"

// Reading what the host placed in the review's dependency view (contract/view_layout.h), inside the
// sandbox: the view is read-only and its tarballs were verified by the host, but the lists that
// name them are text the launcher joins to directories, so each path is checked first.
namespace reviewer::deps {

// A plain relative path of the characters package names, versions and the store use, never
// `..` and never absolute.
bool plain_relative(const std::string& path);

// The refusal every reader of the view gives: `dependency-unpack` saying `what`.
util::Refusal unpack_error(const std::string& what);

// The text of the list `name` the host wrote into `view` (contract::kBunList, kCorepackList), read
// without following a link and bounded by `max_bytes`; "" when the host wrote none. Error
// `dependency-unpack` naming the list.
util::Result<std::string> read_view_list(const std::string& view, const std::string& name,
                                         std::uint64_t max_bytes);

// Makes `into` and unpacks the npm tarball `tarball` (one top folder, usually `package/`) into
// it with /bin/tar, the top folder stripped, owned by the sandbox user. Error `dependency-unpack`
// naming `what`.
util::Status unpack_package(const std::string& tarball, const std::string& into,
                            const std::string& what);

}  // namespace reviewer::deps

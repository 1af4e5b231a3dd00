#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>

#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::plugins {

// A refusal if `st` (from lstat of `path`) is writable by anyone but its owner, or owned by
// someone other than root, the current user, or an id outside this process's user namespace
// (unmapped_owner). `what` is "plugin" or "plugin directory".
util::Status check_ownership(const struct stat& st, const std::string& path,
                             const std::string& rule);

// Whether `uid` is the kernel's overflow uid and this process's user namespace maps no id to
// it: the owner of a file shown that way is someone outside the namespace, whom no process
// inside can be. The run model binds the host's install into a sandbox whose user namespace maps
// 0 to 65533, so the host root's files show as 65534; no process inside can own or change them,
// as none can root's in an image.
bool unmapped_owner(uid_t uid);

// The bytes of an install file of the plugin directory (the manifest, the index): a regular
// file opened without following a link, written by nobody but root or us (checked on the open
// file before a byte is trusted), at most 1 MiB. Unreadable: `missing_rule` ("'PATH' is not a
// regular file", "cannot open 'PATH': ...", "cannot read 'PATH': ..."); too large:
// `invalid_rule` ("WHAT larger than 1 MiB").
util::Result<std::string> read_install_file(const std::string& path, const std::string& what,
                                            const std::string& missing_rule,
                                            const std::string& invalid_rule);

}  // namespace reviewer::plugins

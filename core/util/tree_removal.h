#pragma once

#include <string>
#include <vector>

#include "core/util/result.h"

namespace reviewer::util {

// Removes the entry `name` of the directory `parent_fd`, and everything below it if it is a
// directory, without ever following a symbolic link: a link is removed, never its target.
// Directories a job made unreadable or read-only are made accessible first. `shown` names the
// entry in errors, which carry the rule cleanup-failed. A missing entry is not an error.
Status remove_entry(int parent_fd, const std::string& name, const std::string& shown);

// The names in the open directory `dir_fd` but "." and "..", read in full before the caller
// changes anything. Errors (cleanup-failed) name the directory as `shown`.
Result<std::vector<std::string>> list_directory(int dir_fd, const std::string& shown);

}  // namespace reviewer::util

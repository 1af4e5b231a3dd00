#pragma once

#include <map>
#include <string>

namespace reviewer::util {

// Parses a NUL-separated environment block (the format of /proc/<pid>/environ). Entries without
// '=' or with an empty name are dropped; of two entries with one name the first wins, as getenv
// would see it.
std::map<std::string, std::string> parse_environ(const std::string& block);

// The same map from a process's `char** environ` (nullptr = empty).
std::map<std::string, std::string> environ_map(char** env);

}  // namespace reviewer::util

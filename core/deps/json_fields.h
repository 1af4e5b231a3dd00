#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace reviewer::deps {

// Adds the `key` member of `object` (a JSON object of strings, as package.json's and the lock
// files' dependency groups are) to `out`. True when the member is absent or has that shape;
// false when it has another.
bool read_string_map(const nlohmann::json& object, const char* key,
                     std::map<std::string, std::string>& out);

// Adds the `key` member of `object`, a list of strings (npm's os, cpu and libc), to `out`; with
// `one_string_too`, a single string as well (Bun writes a platform that way). True when the
// member is absent or has that shape; false when it has another.
bool read_string_list(const nlohmann::json& object, const char* key, std::vector<std::string>& out,
                      bool one_string_too = false);

}  // namespace reviewer::deps

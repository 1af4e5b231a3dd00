#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace reviewer::fetch {

// Adds the `key` member of `object` (a JSON object of strings, as package.json's and the lock
// files' dependency groups are) to `out`. True when the member is absent or has that shape;
// false when it has another.
bool read_string_map(const nlohmann::json& object, const char* key,
                     std::map<std::string, std::string>& out);

}  // namespace reviewer::fetch

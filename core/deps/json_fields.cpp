#include "core/deps/json_fields.h"

namespace reviewer::deps {

bool read_string_map(const nlohmann::json& object, const char* key,
                     std::map<std::string, std::string>& out) {
  auto it = object.find(key);
  if (it == object.end()) {
    return true;
  }
  if (!it->is_object()) {
    return false;
  }
  for (const auto& [name, spec] : it->items()) {
    if (!spec.is_string()) {
      return false;
    }
    out[name] = spec.get<std::string>();
  }
  return true;
}

bool read_string_list(const nlohmann::json& object, const char* key, std::vector<std::string>& out,
                      bool one_string_too) {
  auto it = object.find(key);
  if (it == object.end()) {
    return true;
  }
  if (one_string_too && it->is_string()) {
    out.push_back(it->get<std::string>());
    return true;
  }
  if (!it->is_array()) {
    return false;
  }
  for (const auto& v : *it) {
    if (!v.is_string()) {
      return false;
    }
    out.push_back(v.get<std::string>());
  }
  return true;
}

}  // namespace reviewer::deps

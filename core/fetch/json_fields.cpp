#include "core/fetch/json_fields.h"

namespace reviewer::fetch {

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

}  // namespace reviewer::fetch

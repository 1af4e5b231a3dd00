#include "core/resolve/json_validator.h"

#include <algorithm>

#include "core/resolve/safe_file.h"

namespace reviewer::resolve {

using nlohmann::json;

util::Refusal JsonValidator::refuse(const std::string& rule, const std::string& pointer,
                                    const std::string& what) const {
  return util::refusal(rule, name_ + ": " + (pointer.empty() ? "/" : pointer) + ": " + what);
}

util::Refusal JsonValidator::fail(const std::string& pointer, const std::string& what) const {
  return refuse(rules_.invalid_rule, pointer, what);
}

util::Status JsonValidator::object(const json& obj, const std::string& pointer,
                                   const std::vector<std::string>& required,
                                   const std::vector<std::string>& optional_keys) const {
  if (!obj.is_object()) {
    return fail(pointer, std::string("must be an object, not ") + obj.type_name());
  }
  for (const auto& key : required) {
    if (!obj.contains(key)) {
      return fail(pointer, "missing key " + quote(key));
    }
  }
  for (const auto& item : obj.items()) {
    const bool known =
        std::find(required.begin(), required.end(), item.key()) != required.end() ||
        std::find(optional_keys.begin(), optional_keys.end(), item.key()) != optional_keys.end();
    if (!known) {
      return refuse(rules_.unknown_key_rule, pointer, "unknown key " + quote(item.key()));
    }
  }
  return util::ok_status();
}

util::Status JsonValidator::string(const json& v, const std::string& pointer,
                                   bool (*matches)(std::string_view), const std::string& expected,
                                   std::string_view rule) const {
  if (!v.is_string()) {
    return fail(pointer, "must be a string (" + expected + ")");
  }
  if (!matches(v.get<std::string>())) {
    return refuse(rule.empty() ? rules_.invalid_rule : std::string(rule), pointer,
                  quote(v.get<std::string>()) + " is not " + expected);
  }
  return util::ok_status();
}

std::string json_string(std::string_view s) {
  return json(s).dump(-1, ' ', false, json::error_handler_t::replace);
}

util::Result<nlohmann::json> JsonValidator::parse(std::string_view text) const {
  try {  // nlohmann reports syntax errors only by exception; it stops here
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return fail("", std::string("not valid JSON: ") + e.what());
  }
}

}  // namespace reviewer::resolve

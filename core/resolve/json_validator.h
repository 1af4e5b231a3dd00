#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/util/result.h"

namespace reviewer::resolve {

// The rule ids a trusted JSON file's reader refuses under: its catch-all ("invalid-matrix") and
// the one for a key its format does not define ("matrix-unknown-key").
struct JsonRules {
  std::string invalid_rule;
  std::string unknown_key_rule;
};

// Validation of a trusted JSON file (the runtime matrix, the runtime catalogue) walks the
// document with a JSON pointer for messages; the first problem wins. Every message reads
// "<name>: <pointer>: <what>", the pointer "/" for the whole document.
class JsonValidator {
 public:
  JsonValidator(std::string name, JsonRules rules)
      : name_(std::move(name)), rules_(std::move(rules)) {}

  util::Refusal refuse(const std::string& rule, const std::string& pointer,
                       const std::string& what) const;

  // Refused under the catch-all rule.
  util::Refusal fail(const std::string& pointer, const std::string& what) const;

  // Checks that `obj` is an object holding every `required` key and only those and
  // `optional_keys`; an unknown key is refused under the unknown-key rule.
  util::Status object(const nlohmann::json& obj, const std::string& pointer,
                      const std::vector<std::string>& required,
                      const std::vector<std::string>& optional_keys = {}) const;

  // A string of the shape `matches` checks; a mismatch is refused under `rule` (the catch-all
  // when empty), a value that is not a string always under the catch-all.
  util::Status string(const nlohmann::json& v, const std::string& pointer,
                      bool (*matches)(std::string_view), const std::string& expected,
                      std::string_view rule = {}) const;

  // The document `text` holds; text that is not JSON is refused under the catch-all at "/".
  util::Result<nlohmann::json> parse(std::string_view text) const;

 private:
  std::string name_;
  JsonRules rules_;
};

// `s` as a JSON string ("..." with JSON's escapes), what a trusted file's writer puts for a
// string value. Bytes that are not UTF-8 become U+FFFD rather than an exception: a string read
// from JSON never has them.
std::string json_string(std::string_view s);

}  // namespace reviewer::resolve

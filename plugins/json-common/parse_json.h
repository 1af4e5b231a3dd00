// JSON files of the repository as the plugins that read them parse them: bounded nesting, then
// nlohmann's strict RFC 8259 parse, exceptions caught here. One copy, so setup-node, setup-bun and
// the pnpm plugins read JSON alike (and as the core reads package.json).
#pragma once

#include <reviewer/sdk/json_depth.hpp>
#include <reviewer/sdk/repository_file.hpp>

#include <algorithm>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace json_common {

using reviewer::sdk::json_nesting_depth;
using reviewer::sdk::kMaxJsonDepth;

// Parses `text`, the JSON file `file` (a UTF-8 byte-order mark is skipped; the last of duplicate
// keys wins, as in JSON.parse). Refused (invalid-declaration, located at `file`): "FILE nests
// arrays or objects deeper than 64 levels", "FILE is not valid JSON: ...".
inline reviewer::sdk::FileResult<nlohmann::json> parse_json(std::string_view text,
                                                            const std::string& file) {
  if (json_nesting_depth(text) > kMaxJsonDepth) {
    return reviewer::sdk::invalid_declaration(
        file + " nests arrays or objects deeper than " + std::to_string(kMaxJsonDepth) + " levels",
        reviewer::sdk::Place{file});
  }
  try {  // nlohmann reports where the JSON breaks only through its exception
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return reviewer::sdk::invalid_declaration(file + " is not valid JSON: " + e.what(),
                                              reviewer::sdk::Place{file});
  }
}

// `v.key` as JavaScript reads it from a JSON value: an object's own member, or undefined
// (nullptr; no JSON value has an inherited member of the names the plugins read).
inline const nlohmann::json* member(const nlohmann::json* v, const char* key) {
  if (v == nullptr || !v->is_object()) {
    return nullptr;
  }
  const auto it = v->find(key);
  return it == v->end() ? nullptr : &*it;
}

}  // namespace json_common

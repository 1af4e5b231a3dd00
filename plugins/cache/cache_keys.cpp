#include "cache_keys.h"

#include <reviewer/sdk/js_text.hpp>

namespace cache_plugin {

namespace js = reviewer::sdk::js;

std::vector<std::string> restore_key_lines(std::string_view input) {
  std::vector<std::string> out;
  std::string_view rest = js::trim(input);
  while (true) {
    auto nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    std::string key;
    if (line.starts_with('!')) {
      // s.replace(/^!\s+/, "!"): the whitespace after a leading "!" is dropped.
      key = "!" + std::string(js::trim(line.substr(1)));
    } else {
      key = std::string(js::trim(line));
    }
    if (!key.empty()) {
      out.push_back(std::move(key));
    }
    if (nl == std::string_view::npos) {
      break;
    }
    rest.remove_prefix(nl + 1);
  }
  return out;
}

std::string key_problem(std::string_view key) {
  if (js::utf16_length(key) > kMaxKeyLength) {
    return "is " + std::to_string(js::utf16_length(key)) +
           " characters long; keys cannot be larger than 512 characters";
  }
  if (key.find(',') != std::string_view::npos) {
    return "contains a comma; keys cannot contain commas";
  }
  return {};
}

}  // namespace cache_plugin

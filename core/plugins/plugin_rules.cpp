#include "core/plugins/plugin_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace reviewer::plugins {
namespace {

constexpr std::size_t kMaxIdBytes = 64;
constexpr std::size_t kMaxTextBytes = 16 * 1024;

util::Refusal invalid(const std::string& path, const std::string& message) {
  return util::refusal("plugin-invalid-rule", message, util::SourceLocation{path, 0, 0});
}

bool printable_text(std::string_view text) {
  return std::none_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\n' && c != '\t') || u == 0x7f;
  });
}

}  // namespace

bool is_rule_id(std::string_view id) {
  if (id.empty() || id.size() > kMaxIdBytes || id.front() == '-' || id.back() == '-' ||
      id.find("--") != std::string_view::npos) {
    return false;
  }
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

util::Result<std::vector<PluginRule>> copy_rules(const reviewer_plugin_descriptor& d,
                                                 const std::string& path) {
  std::vector<PluginRule> rules;
  if (d.rules == nullptr) {
    return rules;
  }
  for (std::size_t i = 0; i < d.rule_count; ++i) {
    const reviewer_rule_entry& e = d.rules[i];
    const std::string id = e.id == nullptr ? "" : std::string(e.id, ::strnlen(e.id, 256));
    if (!is_rule_id(id)) {
      return invalid(path, fmt::format("rule {} has the id '{}', which is not lower-case words of "
                                       "letters and digits joined by '-' (at most {} bytes)",
                                       i + 1, id.substr(0, kMaxIdBytes), kMaxIdBytes));
    }
    if (std::any_of(rules.begin(), rules.end(), [&](const auto& r) { return r.id == id; })) {
      return invalid(path, fmt::format("rule '{}' is listed twice", id));
    }
    const std::size_t size = e.text == nullptr ? 0 : ::strnlen(e.text, kMaxTextBytes + 1);
    if (size == 0 || size > kMaxTextBytes) {
      return invalid(path, fmt::format("rule '{}' has {} catalogue entry; it must hold 1 to {} "
                                       "bytes",
                                       id, size == 0 ? "an empty" : "a too long", kMaxTextBytes));
    }
    std::string text(e.text, size);
    if (!printable_text(text)) {
      return invalid(path, fmt::format("rule '{}''s catalogue entry holds a control character "
                                       "(only line feeds and tabs may be printed)",
                                       id));
    }
    rules.push_back({id, std::move(text)});
  }
  return rules;
}

}  // namespace reviewer::plugins

#pragma once

#include <reviewer/sdk/abi.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

// A plugin's own refusal rules (SDK 1.11, reviewer_rule_entry): the catalogue entries of rules
// its code refuses under that the core's catalogue does not hold, so `reviewer explain`, SARIF
// output and `reviewer fixtures` know them as they know the core's.
namespace reviewer::plugins {

struct PluginRule {
  std::string id;
  std::string text;  // the catalogue entry, Markdown
  friend bool operator==(const PluginRule&, const PluginRule&) = default;
};

// A rule id as the catalogue writes them: lower-case words of letters and digits joined by '-',
// at most 64 bytes.
bool is_rule_id(std::string_view id);

// The descriptor's rules, copied, or plugin-invalid-rule (located at `path`) for an entry without
// a well-formed id, for one listed twice, or for a text that is empty, over 16 KiB, or holds a
// control character other than a line feed or a tab (it is printed to a terminal).
util::Result<std::vector<PluginRule>> copy_rules(const reviewer_plugin_descriptor& d,
                                                 const std::string& path);

}  // namespace reviewer::plugins

#pragma once

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/report/refusal.h"

namespace reviewer::report {

// "file:line:column: rule: message" (the location part left out when unknown), on one line:
// control bytes from the workflow are escaped (source_excerpt.h).
std::string to_text(const Refusal& r);

// The same, followed by the source line and a caret when the refusal points into `file`, whose
// text is `source`.
std::string to_text(const Refusal& r, std::string_view file, std::string_view source);

nlohmann::json to_json(const Refusal& r);
nlohmann::json to_json(const Refusals& rs);

// A SARIF 2.1.0 log with one result per refusal, for code-scanning tools.
nlohmann::json to_sarif(const Refusals& rs, const std::string& tool_version);
// The same, with each region pointing into `file` carrying its source line as the snippet.
nlohmann::json to_sarif(const Refusals& rs, const std::string& tool_version, std::string_view file,
                        std::string_view source);
// The same, where a rule of `plugin_rules` (a plugin's own: its id and catalogue entry) carries
// that entry as its help; every other rule links its section of docs/refusals.md.
nlohmann::json to_sarif(const Refusals& rs, const std::string& tool_version, std::string_view file,
                        std::string_view source,
                        const std::map<std::string, std::string>& plugin_rules);

}  // namespace reviewer::report

#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/report/refusal.h"

namespace reviewer::report {

// "file:line:column: rule: message" (the location part left out when unknown).
std::string to_text(const Refusal& r);

nlohmann::json to_json(const Refusal& r);
nlohmann::json to_json(const Refusals& rs);

// A SARIF 2.1.0 log with one result per refusal, for code-scanning tools.
nlohmann::json to_sarif(const Refusals& rs, const std::string& tool_version);

}  // namespace reviewer::report

#include "core/report/render.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <set>

#include "core/report/source_excerpt.h"

namespace reviewer::report {

std::string to_text(const Refusal& r) {
  if (r.location) {
    return printable(fmt::format("{}: {}: {}", r.location->to_string(), r.rule, r.message));
  }
  return printable(fmt::format("{}: {}", r.rule, r.message));
}

std::string to_text(const Refusal& r, std::string_view file, std::string_view source) {
  std::string text = to_text(r);
  if (r.location && r.location->file == file) {
    if (std::string shown = excerpt(source, *r.location); !shown.empty()) {
      text += "\n" + shown;
    }
  }
  return text;
}

nlohmann::json to_json(const Refusal& r) {
  nlohmann::json j{{"rule", r.rule}, {"message", r.message}};
  if (r.location) {
    j["location"] = {
        {"file", r.location->file}, {"line", r.location->line}, {"column", r.location->column}};
  }
  return j;
}

nlohmann::json to_json(const Refusals& rs) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& r : rs) {
    a.push_back(to_json(r));
  }
  return a;
}

nlohmann::json to_sarif(const Refusals& rs, const std::string& tool_version) {
  return to_sarif(rs, tool_version, {}, {});
}

nlohmann::json to_sarif(const Refusals& rs, const std::string& tool_version, std::string_view file,
                        std::string_view source) {
  return to_sarif(rs, tool_version, file, source, {});
}

nlohmann::json to_sarif(const Refusals& rs, const std::string& tool_version, std::string_view file,
                        std::string_view source,
                        const std::map<std::string, std::string>& plugin_rules) {
  std::set<std::string> rule_ids;
  nlohmann::json results = nlohmann::json::array();
  for (const auto& r : rs) {
    rule_ids.insert(r.rule);
    nlohmann::json res{{"ruleId", r.rule}, {"level", "error"}, {"message", {{"text", r.message}}}};
    if (r.location) {
      nlohmann::json region = nlohmann::json::object();
      if (r.location->known()) {
        region = {{"startLine", r.location->line}, {"startColumn", r.location->column}};
        if (!file.empty() && r.location->file == file) {
          if (auto line = source_line(source, r.location->line)) {
            region["snippet"] = {{"text", std::string(*line)}};
          }
        }
      }
      nlohmann::json phys{{"artifactLocation", {{"uri", r.location->file}}}};
      if (!region.empty()) {
        phys["region"] = region;
      }
      res["locations"] = nlohmann::json::array({{{"physicalLocation", phys}}});
    }
    results.push_back(res);
  }
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& id : rule_ids) {
    if (auto own = plugin_rules.find(id); own != plugin_rules.end()) {
      rules.push_back({{"id", id}, {"help", {{"text", own->second}, {"markdown", own->second}}}});
    } else {
      rules.push_back({{"id", id}, {"helpUri", "docs/refusals.md#" + id}});
    }
  }
  return {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       nlohmann::json::array(
           {{{"tool",
              {{"driver", {{"name", "reviewer"}, {"version", tool_version}, {"rules", rules}}}}},
             {"results", results}}})}};
}

}  // namespace reviewer::report

#include "core/deps/release_pick.h"

#include <nlohmann/json.hpp>

namespace reviewer::deps {
namespace {

util::Refusal invalid(const std::string& name, const std::string& why) {
  return util::Refusal{"package-manager-metadata-invalid",
                       "the registry's document for " + name + " " + why, std::nullopt};
}

}  // namespace

util::Result<std::string> pick_release(const std::string& packument, const std::string& name,
                                       const semver::Range& wanted, const std::string& range,
                                       const std::string& what) {
  nlohmann::json doc;
  try {  // nlohmann reports malformed JSON only through its exception
    doc = nlohmann::json::parse(packument);
  } catch (const nlohmann::json::exception&) {
    return invalid(name, "is not JSON");
  }
  if (!doc.is_object() || !doc.contains("name") || doc["name"] != name ||
      !doc.contains("versions") || !doc["versions"].is_object()) {
    return invalid(name, "names another package or has no versions");
  }
  std::string latest;
  if (doc.contains("dist-tags") && doc["dist-tags"].is_object() &&
      doc["dist-tags"].contains("latest") && doc["dist-tags"]["latest"].is_string()) {
    latest = doc["dist-tags"]["latest"].get<std::string>();
  }
  auto deprecated = [&](const std::string& v) {
    const auto& m = doc["versions"][v];
    return m.is_object() && m.contains("deprecated") && m["deprecated"].is_string() &&
           !m["deprecated"].get<std::string>().empty();
  };
  std::optional<semver::Version> best;
  std::optional<semver::Version> best_live;
  std::string best_text;
  std::string best_live_text;
  bool latest_satisfies = false;
  for (const auto& [text, manifest] : doc["versions"].items()) {
    auto v = semver::parse_version(text, true);
    if (!v || !wanted.test(*v)) {
      continue;
    }
    latest_satisfies = latest_satisfies || text == latest;
    if (!best || *v > *best) {
      best = *v;
      best_text = text;
    }
    if (!deprecated(text) && (!best_live || *v > *best_live)) {
      best_live = *v;
      best_live_text = text;
    }
  }
  if (!best) {
    return util::refusal("package-manager-version-missing",
                         what + " asks for " + name + " '" + range +
                             "', which no release on the registry satisfies; CI's install fails "
                             "the same way");
  }
  if (latest_satisfies && !deprecated(latest)) {
    return latest;
  }
  if (best_live) {
    return best_live_text;
  }
  return latest_satisfies ? latest : best_text;
}

}  // namespace reviewer::deps

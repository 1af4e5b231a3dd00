#include "core/deps/catalogue/release_schedule.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>

namespace reviewer::deps {
namespace {

using json = nlohmann::json;

// The catalogue's first line: older ones are not provided (runtime_catalogue.h).
constexpr int kFirstMajor = 18;

std::string text_of(const json& line, const char* key) {
  const json value = line.value(key, json());
  return value.is_string() ? value.get<std::string>() : std::string();
}

}  // namespace

util::Result<resolve::NodeSchedule> parse_release_schedule(std::string_view text,
                                                           std::string source) {
  const json doc = json::parse(text, nullptr, false);
  if (!doc.is_object()) {
    return util::refusal(util::RefusalKind::kHost, "invalid-catalogue",
                         source + " is not a release schedule (a JSON object of lines)");
  }
  resolve::NodeSchedule out;
  out.source = std::move(source);
  for (const auto& [name, line] : doc.items()) {
    int major = 0;
    const char* first = name.data() + 1;
    const char* last = name.data() + name.size();
    if (name.size() < 2 || name[0] != 'v' || std::from_chars(first, last, major).ptr != last ||
        major < kFirstMajor || !line.is_object()) {
      continue;  // v0.12 and the like: not a line the catalogue provides
    }
    out.lines.push_back(
        {major, text_of(line, "start"), text_of(line, "lts"), text_of(line, "codename")});
  }
  std::sort(
      out.lines.begin(), out.lines.end(),
      [](const resolve::NodeLine& a, const resolve::NodeLine& b) { return a.major < b.major; });
  if (out.lines.empty()) {
    return util::refusal(util::RefusalKind::kHost, "invalid-catalogue",
                         out.source + " has no release line from " + std::to_string(kFirstMajor));
  }
  return out;
}

}  // namespace reviewer::deps

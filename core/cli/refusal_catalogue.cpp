#include "core/cli/refusal_catalogue.h"

namespace reviewer::cli {
namespace {

std::optional<std::pair<std::size_t, std::size_t>> section(std::string_view doc,
                                                           std::string_view rule) {
  const std::string heading = "### `" + std::string(rule) + "`";
  std::size_t at = doc.find(heading + "\n");
  if (at == std::string_view::npos) {
    return std::nullopt;
  }
  std::size_t end = doc.find("\n#", at + heading.size());
  return std::make_pair(at, end == std::string_view::npos ? doc.size() : end + 1);
}

}  // namespace

std::optional<std::string> find_refusal_entry(std::string_view rule) {
  auto doc = refusal_catalogue();
  auto s = section(doc, rule);
  if (!s) {
    return std::nullopt;
  }
  return std::string(doc.substr(s->first, s->second - s->first));
}

std::vector<std::string> catalogued_rules() {
  std::vector<std::string> out;
  auto doc = refusal_catalogue();
  std::size_t pos = 0;
  while ((pos = doc.find("### `", pos)) != std::string_view::npos) {
    pos += 5;
    auto end = doc.find('`', pos);
    if (end == std::string_view::npos) {
      break;
    }
    out.emplace_back(doc.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

}  // namespace reviewer::cli

#include "core/resolve/text_lines.h"

namespace reviewer::resolve {

std::vector<Line> lines_of(std::string_view text) {
  std::vector<Line> out;
  std::uint32_t number = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    out.push_back({line, ++number});
    if (nl == std::string_view::npos) {
      break;
    }
    text.remove_prefix(nl + 1);
  }
  return out;
}

std::uint32_t column_of(std::string_view whole, std::string_view part) {
  return static_cast<std::uint32_t>(part.data() - whole.data()) + 1;
}

}  // namespace reviewer::resolve

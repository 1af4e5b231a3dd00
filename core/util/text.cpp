#include "core/util/text.h"

namespace reviewer::util {

std::string_view trim(std::string_view s, std::string_view space) {
  const auto first = s.find_first_not_of(space);
  if (first == std::string_view::npos) {
    return {};
  }
  return s.substr(first, s.find_last_not_of(space) - first + 1);
}

bool has_control_character(std::string_view s) {
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      return true;
    }
  }
  return false;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

std::string quote(std::string_view value, char mark) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  // Built by appending: GCC 12's -Wrestrict misfires on `"\"" + std::string(s)` at -O3.
  std::string out(1, mark);
  for (std::size_t i = 0; i < value.size() && i < kQuoteMax; ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (c == static_cast<unsigned char>(mark) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (value.size() > kQuoteMax) {
    out += "...";
  }
  out += mark;
  return out;
}

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> parts;
  for (std::size_t at = 0; at <= path.size();) {
    const auto slash = path.find('/', at);
    const auto end = slash == std::string_view::npos ? path.size() : slash;
    parts.emplace_back(path.substr(at, end - at));
    at = end + 1;
  }
  return parts;
}

}  // namespace reviewer::util

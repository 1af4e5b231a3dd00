#include "core/util/text.h"

#include <algorithm>

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

std::size_t unsafe_bytes_at(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if ((c < 0x20 && c != '\t') || c == 0x7f) {
    return 1;
  }
  const auto at = [&](std::size_t k) {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0;
  };
  if (c == 0xc2 && at(1) == 0x85) {
    return 2;
  }
  if (c == 0xe2 && at(1) == 0x80 && (at(2) == 0xa8 || at(2) == 0xa9)) {
    return 3;
  }
  return 0;
}

namespace {

constexpr char kHex[] = "0123456789ABCDEF";

void append_hex_escapes(std::string& out, std::string_view bytes) {
  for (char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 0xf];
  }
}

}  // namespace

void append_printable(std::string& out, std::string_view s) {
  std::size_t plain = 0;
  for (std::size_t i = 0; i < s.size();) {
    if (const std::size_t n = unsafe_bytes_at(s, i); n != 0) {
      out.append(s.substr(plain, i - plain));
      append_hex_escapes(out, s.substr(i, n));
      i += n;
      plain = i;
    } else {
      ++i;
    }
  }
  out.append(s.substr(plain));
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
  // Built by appending: GCC 12's -Wrestrict misfires on `"\"" + std::string(s)` at -O3.
  std::string out(1, mark);
  const std::string_view shown = value.substr(0, kQuoteMax);
  for (std::size_t i = 0; i < shown.size();) {
    const auto c = static_cast<unsigned char>(shown[i]);
    std::size_t n = unsafe_bytes_at(shown, i);
    if (c == static_cast<unsigned char>(mark) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (n != 0 || c == '\t') {
      n = std::max<std::size_t>(n, 1);
      append_hex_escapes(out, shown.substr(i, n));
      i += n;
    } else {
      out += static_cast<char>(c);
      ++i;
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

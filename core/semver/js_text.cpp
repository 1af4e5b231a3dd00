#include "core/semver/js_text.h"

#include <charconv>
#include <cstdlib>

namespace reviewer::js {

std::size_t whitespace_at(std::string_view s, std::size_t i) {
  if (i >= s.size()) {
    return 0;
  }
  const auto b = [&](std::size_t k) {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0U;
  };
  const unsigned c = b(0);
  if (c == ' ' || (c >= '\t' && c <= '\r')) {
    return 1;
  }
  if (c == 0xC2 && b(1) == 0xA0) {
    return 2;  // U+00A0
  }
  if (c == 0xE1 && b(1) == 0x9A && b(2) == 0x80) {
    return 3;  // U+1680
  }
  if (c == 0xE2 && b(1) == 0x80) {  // U+2000..U+200A, U+2028/9, U+202F
    const unsigned d = b(2);
    if ((d >= 0x80 && d <= 0x8A) || d == 0xA8 || d == 0xA9 || d == 0xAF) {
      return 3;
    }
  }
  if (c == 0xE2 && b(1) == 0x81 && b(2) == 0x9F) {
    return 3;  // U+205F
  }
  if (c == 0xE3 && b(1) == 0x80 && b(2) == 0x80) {
    return 3;  // U+3000
  }
  if (c == 0xEF && b(1) == 0xBB && b(2) == 0xBF) {
    return 3;  // U+FEFF
  }
  return 0;
}

std::size_t line_terminator_at(std::string_view s, std::size_t i) {
  if (i >= s.size()) {
    return 0;
  }
  if (s[i] == '\n' || s[i] == '\r') {
    return 1;
  }
  const std::string_view three = s.substr(i, 3);
  return three == "\xE2\x80\xA8" || three == "\xE2\x80\xA9" ? 3 : 0;
}

bool at_line_end(std::string_view s, std::size_t i) {
  return i >= s.size() || line_terminator_at(s, i) != 0;
}

std::optional<std::size_t> next_line_start(std::string_view s, std::size_t p) {
  for (std::size_t i = p; i < s.size(); ++i) {
    if (const std::size_t n = line_terminator_at(s, i)) {
      return i + n;
    }
  }
  return std::nullopt;
}

std::size_t non_space_run_end(std::string_view s, std::size_t i) {
  // Byte by byte: white space begins with an ASCII byte or a UTF-8 lead byte, never with a
  // continuation byte, so stepping inside a multi-byte character cannot find one there.
  while (i < s.size() && whitespace_at(s, i) == 0) {
    ++i;
  }
  return i;
}

std::string collapse_whitespace(std::string_view s) {
  s = trim(s);
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    if (std::size_t n = whitespace_at(s, i)) {
      while ((n = whitespace_at(s, i)) != 0) {
        i += n;
      }
      out += ' ';
    } else {
      out += s[i++];
    }
  }
  return out;
}

std::vector<std::string> split_whitespace(std::string_view s) {
  std::vector<std::string> out;
  std::string field;
  std::size_t i = 0;
  while (i < s.size()) {
    if (std::size_t n = whitespace_at(s, i)) {
      while ((n = whitespace_at(s, i)) != 0) {
        i += n;
      }
      out.push_back(std::move(field));
      field.clear();
    } else {
      field += s[i++];
    }
  }
  out.push_back(std::move(field));
  return out;
}

std::vector<std::string> split(std::string_view s, std::string_view sep) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t at = s.find(sep, from);
    if (at == std::string_view::npos) {
      break;
    }
    out.emplace_back(s.substr(from, at - from));
    from = at + sep.size();
  }
  out.emplace_back(s.substr(from));
  return out;
}

std::size_t utf16_length(std::string_view s) {
  std::size_t units = 0;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c & 0xC0) != 0x80) {
      ++units;  // each code point starts with a non-continuation byte
    }
    if (c >= 0xF0) {
      ++units;  // outside the BMP: a surrogate pair
    }
  }
  return units;
}

std::string increment(std::string_view digits) {
  std::size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) {
    return "1";
  }
  digits.remove_prefix(first);
  if (digits.size() <= 15) {  // exact in a double and well below 2^53
    std::uint64_t v = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), v);
    return std::to_string(v + 1);
  }
  // Large values: JavaScript rounds to a double; any result is beyond MAX_SAFE_INTEGER, so
  // only its printed shape (decimal below 1e21, exponent form above) matters downstream.
  const double value = std::strtod(std::string(digits).c_str(), nullptr) + 1;
  char buf[64];
  const auto fmt = value < 1e21 ? std::chars_format::fixed : std::chars_format::scientific;
  const auto res = std::to_chars(buf, buf + sizeof buf, value, fmt);
  return std::string(buf, res.ptr);
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += sep;
    }
    out += parts[i];
  }
  return out;
}

}  // namespace reviewer::js

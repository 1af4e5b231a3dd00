#include "core/util/utf8.h"

namespace reviewer::util {

std::size_t decode_utf8(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  const std::size_t n = b0 < 0x80         ? 1
                        : (b0 >> 5) == 6  ? 2
                        : (b0 >> 4) == 14 ? 3
                        : (b0 >> 3) == 30 ? 4
                                          : 0;
  if (n == 0 || i + n > s.size()) {
    return 0;
  }
  cp = n == 1 ? b0 : n == 2 ? (b0 & 0x1f) : n == 3 ? (b0 & 0x0f) : (b0 & 0x07);
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b >> 6) != 2) {
      return 0;
    }
    cp = (cp << 6) | (b & 0x3f);
  }
  static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || (cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff) {
    return 0;
  }
  return n;
}

void append_utf8(std::uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

}  // namespace reviewer::util

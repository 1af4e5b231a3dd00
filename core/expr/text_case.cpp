#include "core/expr/text_case.h"

#include <locale.h>
#include <wctype.h>

#include <cstdint>

namespace reviewer::expr {
namespace {

// C.UTF-8's character tables, without touching the process's own locale.
locale_t utf8_locale() {
  static locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
  return loc;
}

// Decodes one UTF-8 sequence at s[i]; 0 for an invalid one (the byte is then kept as is).
std::size_t decode(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t n = b0 < 0x80         ? 1
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
  return n;
}

void encode(std::uint32_t cp, std::string& out) {
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

template <class Map>
std::string map_case(std::string_view s, Map map) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += static_cast<char>(map(c));
      ++i;
      continue;
    }
    std::uint32_t cp = 0;
    const std::size_t n = decode(s, i, cp);
    if (n == 0) {
      out += s[i++];
      continue;
    }
    encode(map(cp), out);
    i += n;
  }
  return out;
}

}  // namespace

std::string upper_special(std::string_view s) {
  return map_case(s, [](std::uint32_t cp) -> std::uint32_t {
    if (cp < 0x80) {
      return (cp >= 'a' && cp <= 'z') ? cp - 32 : cp;
    }
    if (cp == 0x131) {  // dotless i
      return cp;
    }
    return static_cast<std::uint32_t>(towupper_l(static_cast<wint_t>(cp), utf8_locale()));
  });
}

std::string lower(std::string_view s) {
  return map_case(s, [](std::uint32_t cp) -> std::uint32_t {
    if (cp < 0x80) {
      return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
    }
    return static_cast<std::uint32_t>(towlower_l(static_cast<wint_t>(cp), utf8_locale()));
  });
}

}  // namespace reviewer::expr

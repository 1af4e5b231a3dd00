#include "core/expr/text_case.h"

#include <locale.h>
#include <wctype.h>

#include <cstdint>

#include "core/util/utf8.h"

namespace reviewer::expr {
namespace {

// C.UTF-8's character tables, without touching the process's own locale.
locale_t utf8_locale() {
  static locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
  return loc;
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
    const std::size_t n = util::decode_utf8(s, i, cp);
    if (n == 0) {
      out += s[i++];
      continue;
    }
    util::append_utf8(map(cp), out);
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

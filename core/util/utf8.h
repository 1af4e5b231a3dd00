#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace reviewer::util {

// The length of the well-formed UTF-8 sequence at s[i] (1 to 4), with its code point in `cp`;
// 0 when the bytes there are not one (a stray continuation byte, a cut sequence, an overlong
// form, a surrogate, a code point past U+10FFFF).
std::size_t decode_utf8(std::string_view s, std::size_t i, std::uint32_t& cp);

// Appends the UTF-8 encoding of `cp` (at most U+10FFFF) to `out`.
void append_utf8(std::uint32_t cp, std::string& out);

}  // namespace reviewer::util

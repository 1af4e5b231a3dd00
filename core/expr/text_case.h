#pragma once

#include <string>
#include <string_view>

namespace reviewer::expr {

// Upper case for the language's case-insensitive comparisons (==, <, startsWith, endsWith):
// every character mapped by Unicode's simple upper-case mapping, except the dotless i 'ı',
// which stays as it is. Bytes that are not UTF-8 are kept.
std::string upper_special(std::string_view s);

// Lower case for contains() and for object keys: Unicode's simple lower-case mapping.
std::string lower(std::string_view s);

}  // namespace reviewer::expr

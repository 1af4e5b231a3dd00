#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

// Line splitting shared by the version-file readers, so every reader numbers lines and columns
// the same way in its diagnostics.
namespace reviewer::resolve {

struct Line {
  std::string_view text;  // without its terminator ("\n" or "\r\n")
  std::uint32_t number = 0;
};

// The lines of `text`, split at "\n"; one trailing "\r" is dropped from each.
std::vector<Line> lines_of(std::string_view text);

// The 1-based byte column of `part`, which must point into `whole`.
std::uint32_t column_of(std::string_view whole, std::string_view part);

}  // namespace reviewer::resolve

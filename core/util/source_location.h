#pragma once

#include <cstdint>
#include <string>

namespace reviewer::util {

// Where something was written: a file and a 1-based line and column (0 = unknown).
struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  bool known() const { return line != 0; }
  // "file:line:column", or just "file" when the position is unknown.
  std::string to_string() const {
    if (!known()) {
      return file;
    }
    return file + ":" + std::to_string(line) + ":" + std::to_string(column);
  }
  friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

}  // namespace reviewer::util

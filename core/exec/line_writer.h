#pragma once

#include <string>
#include <string_view>

#include "core/exec/network_signs.h"

namespace reviewer::exec {

// Splits a byte stream into lines and writes each to `fd` behind `prefix`, every control byte but
// the tab escaped as \xNN. Memory stays bounded: a line longer than kMaxLine is written in pieces.
class LineWriter {
 public:
  static constexpr std::size_t kMaxLine = 64 * 1024;

  // `prefix` names the step (the pull request's text): escaped once, here.
  LineWriter(int fd, std::string_view prefix);
  void feed(std::string_view bytes);
  // Writes a final partial line, if any.
  void flush();
  // The first line written that showed a network access; empty when none did.
  const std::string& network_sign() const { return signs_.first(); }

 private:
  void emit(std::string_view line);

  NetworkSigns signs_;
  int fd_;
  std::string prefix_;
  std::string pending_;
  std::string out_;
};

// Writes all of `bytes` to `fd`, retrying on EINTR and short writes; false on error.
bool write_all(int fd, std::string_view bytes);

}  // namespace reviewer::exec

#include "core/exec/line_writer.h"

#include <unistd.h>

#include <cerrno>

namespace reviewer::exec {

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// A step's bytes are not the launcher's: a carriage return, a terminal escape or any other control
// byte is written \xNN (as report::printable writes it), so no step can put a line on the
// launcher's stdout that reads as a verdict, nor redraw one. Tabs stay.
void LineWriter::emit(std::string_view line) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  signs_.see(line);
  out_ += prefix_;
  std::size_t plain = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if ((c < 0x20 && c != '\t') || c == 0x7f) {
      out_.append(line.substr(plain, i - plain));
      out_ += "\\x";
      out_ += kHex[c >> 4];
      out_ += kHex[c & 15];
      plain = i + 1;
    }
  }
  out_.append(line.substr(plain));
  out_ += '\n';
}

// Each chunk read from a step becomes at most one write: a step printing short lines costs one
// syscall per chunk, not per line. Memory: the pending partial line (at most kMaxLine) and the
// output of one chunk.
void LineWriter::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    auto nl = bytes.find('\n');
    if (nl == std::string_view::npos) {
      std::size_t room = kMaxLine - pending_.size();
      std::size_t take = std::min(room, bytes.size());
      pending_.append(bytes.substr(0, take));
      bytes.remove_prefix(take);
      if (pending_.size() == kMaxLine) {
        emit(pending_);
        pending_.clear();
      }
      continue;
    }
    if (pending_.empty()) {
      emit(bytes.substr(0, nl));
    } else {
      pending_.append(bytes.substr(0, nl));
      emit(pending_);
      pending_.clear();
    }
    bytes.remove_prefix(nl + 1);
  }
  write_all(fd_, out_);
  out_.clear();
}

void LineWriter::flush() {
  if (!pending_.empty()) {
    emit(pending_);
    pending_.clear();
  }
  write_all(fd_, out_);
  out_.clear();
}

}  // namespace reviewer::exec

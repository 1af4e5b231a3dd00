#include "core/exec/line_writer.h"

#include <unistd.h>

#include <cerrno>

#include "core/util/text.h"

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

LineWriter::LineWriter(int fd, std::string_view prefix) : fd_(fd) {
  util::append_printable(prefix_, prefix);
}

// A step's bytes are not the launcher's: a carriage return, a terminal escape, any other control
// byte or a Unicode line separator is written \xNN (util::append_printable), so no step can put a
// line on the launcher's stdout that reads as a verdict, nor redraw one. Tabs stay.
void LineWriter::emit(std::string_view line) {
  signs_.see(line);
  out_ += prefix_;
  util::append_printable(out_, line);
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

#include "core/exec/line_writer.h"

#include <unistd.h>

#include <cerrno>

namespace reviewer::exec {

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void LineWriter::emit(std::string_view line) {
  std::string out;
  out.reserve(prefix_.size() + line.size() + 1);
  out += prefix_;
  out += line;
  out += '\n';
  write_all(fd_, out);
}

void LineWriter::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    auto nl = bytes.find('\n');
    if (nl == std::string_view::npos) {
      std::size_t room = kMaxLine - pending_.size();
      pending_.append(bytes.substr(0, room));
      bytes.remove_prefix(std::min(room, bytes.size()));
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
}

void LineWriter::flush() {
  if (!pending_.empty()) {
    emit(pending_);
    pending_.clear();
  }
}

}  // namespace reviewer::exec

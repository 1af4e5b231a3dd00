#pragma once

#include <string>
#include <string_view>

#include "core/exec/line_writer.h"
#include "core/util/text.h"

namespace reviewer::exec {

// Where the launcher's own lines go (job started, step failed, leftovers killed): handed down
// once instead of a file descriptor threaded through every layer, and captured by tests.
class LogSink {
 public:
  virtual ~LogSink() = default;
  // Writes `text` as one line (the newline is added).
  virtual void line(std::string_view text) = 0;
};

// The launcher's log: lines written to a file descriptor (its standard output).
class FdLogSink final : public LogSink {
 public:
  explicit FdLogSink(int fd) : fd_(fd) {}
  // Every line escaped (util::append_printable): a step's or a job's name in it is the pull
  // request's text, and must not end the line or add one.
  void line(std::string_view text) override {
    std::string out;
    out.reserve(text.size() + 1);
    util::append_printable(out, text);
    out += '\n';
    write_all(fd_, out);
  }

 private:
  int fd_;
};

}  // namespace reviewer::exec

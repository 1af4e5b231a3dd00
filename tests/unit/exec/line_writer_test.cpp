#include "core/exec/line_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace reviewer::exec {
namespace {

std::string through(const std::vector<std::string>& chunks) {
  int fds[2];
  EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  ::fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
  {
    LineWriter w(fds[1], "> ");
    for (const auto& c : chunks) {
      w.feed(c);
    }
    w.flush();
  }
  ::close(fds[1]);
  std::string out;
  char buf[65536];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) {
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  return out;
}

TEST(LineWriter, PrefixesLinesAcrossChunkBoundaries) {
  EXPECT_EQ(through({"a\nb", "c\n", "\nlast"}), "> a\n> bc\n> \n> last\n");
}

TEST(LineWriter, SplitsAnEndlessLineInBoundedPieces) {
  std::string big(LineWriter::kMaxLine + 10, 'x');
  auto out = through({big.substr(0, 40000), big.substr(40000)});
  EXPECT_EQ(out,
            "> " + std::string(LineWriter::kMaxLine, 'x') + "\n> " + std::string(10, 'x') + "\n");
}

}  // namespace
}  // namespace reviewer::exec

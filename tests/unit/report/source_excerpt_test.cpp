#include "core/report/source_excerpt.h"

#include <gtest/gtest.h>

#include <string>

namespace reviewer::report {
namespace {

util::SourceLocation at(std::uint32_t line, std::uint32_t column) {
  return {"w.yml", line, column};
}

constexpr const char* kWorkflow =
    "on: pull_request\n"
    "jobs:\n"
    "  build:\n"
    "    runs-on: windows-latest\n";

TEST(Excerpt, TheLineAndACaretUnderTheColumn) {
  EXPECT_EQ(excerpt(kWorkflow, at(4, 14)),
            "    runs-on: windows-latest\n"
            "             ^");
  EXPECT_EQ(excerpt(kWorkflow, at(1, 1)), "on: pull_request\n^");
}

TEST(Excerpt, EndOfFileComplaintsPointAtTheEmptyLastLine) {
  EXPECT_EQ(excerpt("a: [b\n", at(2, 1)), "\n^");
  EXPECT_EQ(excerpt("a: [b", at(1, 6)), "a: [b\n     ^");  // past the end: after the last char
}

TEST(Excerpt, NothingForUnknownOrMissingPositions) {
  EXPECT_EQ(excerpt(kWorkflow, at(0, 0)), "");
  EXPECT_EQ(excerpt(kWorkflow, at(3, 0)), "");
  EXPECT_EQ(excerpt(kWorkflow, at(6, 1)), "");
  EXPECT_EQ(excerpt("", at(2, 1)), "");
}

TEST(Excerpt, CarriageReturnsAreNotShown) {
  EXPECT_EQ(excerpt("a: b\r\nc: d\r\n", at(2, 4)), "c: d\n   ^");
}

TEST(Excerpt, TabsStayInTheCaretLineSoTheCaretStaysAligned) {
  EXPECT_EQ(excerpt("\tkey: x\n", at(1, 7)), "\tkey: x\n\t     ^");
}

TEST(Excerpt, ColumnsCountCharactersNotBytes) {
  // "é" is two bytes and one column, as the loader counts it.
  EXPECT_EQ(excerpt("name: caf\xc3\xa9 x: y\n", at(1, 12)),
            "name: caf\xc3\xa9 x: y\n"
            "           ^");
}

TEST(Excerpt, ControlBytesAreEscapedAndTheCaretAccountsForThem) {
  EXPECT_EQ(excerpt("a: \x1b[31mred\n", at(1, 9)),
            "a: \\x1B[31mred\n"
            "           ^");
}

TEST(Excerpt, LongLinesShowAWindowAroundTheColumn) {
  std::string line(300, 'a');
  line[200] = 'X';
  const std::string shown = excerpt(line + "\n", at(1, 201));
  const auto nl = shown.find('\n');
  ASSERT_NE(nl, std::string::npos);
  const std::string text = shown.substr(0, nl);
  const std::string caret = shown.substr(nl + 1);
  EXPECT_EQ(text.size(), 3 + 120 + 3U);
  EXPECT_EQ(text.substr(0, 3), "...");
  EXPECT_EQ(text.substr(text.size() - 3), "...");
  EXPECT_EQ(text[caret.size() - 1], 'X');
  EXPECT_EQ(caret.back(), '^');

  // Near either end the window is pinned to that end.
  EXPECT_EQ(excerpt(line, at(1, 1)).substr(0, 4), "aaaa");
  const std::string end = excerpt(line, at(1, 300));
  const std::string end_text = end.substr(0, end.find('\n'));
  EXPECT_EQ(end_text.size(), 3 + 120U);
  EXPECT_EQ(end.size() - end_text.size() - 1, end_text.size());  // caret under the last char
}

TEST(Printable, ControlBytesBecomeEscapes) {
  EXPECT_EQ(printable("a\x1b[2Jb\nc\r\x7f\td"), "a\\x1B[2Jb\\x0Ac\\x0D\\x7F\td");
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9");
}

}  // namespace
}  // namespace reviewer::report

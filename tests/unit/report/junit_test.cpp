// JUnit for CI tools: whatever a step or a workflow named, the document is XML 1.0 a parser
// accepts (the attack on the launcher, finding 5, made report.xml unparseable), and times are
// milliseconds.
#include <gtest/gtest.h>

#include <string>

#include "core/report/junit.h"

namespace reviewer::report {
namespace {

// Every character XML 1.0 allows in a document: tab, line feed, carriage return, and text
// that is valid UTF-8 without U+FFFE, U+FFFF or surrogates.
bool xml10(const std::string& doc) {
  for (std::size_t i = 0; i < doc.size();) {
    const auto c = static_cast<unsigned char>(doc[i]);
    if (c < 0x80) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
        return false;
      }
      ++i;
      continue;
    }
    const std::size_t n = (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > doc.size()) {
      return false;
    }
    if (doc.compare(i, 3, "\xef\xbf\xbe") == 0 || doc.compare(i, 3, "\xef\xbf\xbf") == 0 ||
        (c == 0xed && static_cast<unsigned char>(doc[i + 1]) >= 0xa0)) {
      return false;
    }
    i += n;
  }
  return true;
}

TEST(Junit, HostileNamesAndMessagesStayXml10) {
  const std::string doc = to_junit({
      {"job\x01", "step\nreview-build-ok\x1b[2K", "failed", "bad \xff\xfe byte \xef\xbf\xbf",
       1.23456},
      {"job\x01", "caf\xc3\xa9 \xe2\x9c\x93", "ok", "", 0.0004},
  });
  EXPECT_TRUE(xml10(doc)) << doc;
  EXPECT_NE(doc.find("name=\"step\\x0Areview-build-ok\\x1B[2K\""), std::string::npos) << doc;
  EXPECT_NE(doc.find("message=\"bad \\xFF\\xFE byte \\xEF\\xBF\\xBF\""), std::string::npos) << doc;
  EXPECT_NE(doc.find("caf\xc3\xa9 \xe2\x9c\x93"), std::string::npos) << "valid UTF-8 is kept";
  EXPECT_NE(doc.find("time=\"1.235\""), std::string::npos) << doc;
  EXPECT_NE(doc.find("time=\"0.000\""), std::string::npos) << doc;
}

}  // namespace
}  // namespace reviewer::report

#include "core/report/junit.h"

#include "core/report/source_excerpt.h"
#include "core/util/utf8.h"

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <pugixml.hpp>
#include <sstream>

namespace reviewer::report {
namespace {

// Text as XML 1.0 may hold it: every control character written \xNN as printable() writes it
// (XML 1.0 has no way to write most of them, and a tool's parser would refuse the whole file),
// bytes that are not UTF-8 and the non-characters U+FFFE and U+FFFF likewise.
std::string xml_text(std::string_view s) {
  const std::string p = printable(s);
  std::string out;
  out.reserve(p.size());
  auto escape = [&](unsigned char c) { out += fmt::format("\\x{:02X}", c); };
  for (std::size_t i = 0; i < p.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = util::decode_utf8(p, i, cp);
    if (n == 0 || cp == 0xfffe || cp == 0xffff) {
      escape(static_cast<unsigned char>(p[i]));
      ++i;
      continue;
    }
    out.append(p, i, n);
    i += n;
  }
  return out;
}

}  // namespace

std::string to_junit(const std::vector<TestCase>& cases) {
  pugi::xml_document doc;
  auto root = doc.append_child("testsuites");
  root.append_attribute("name") = "review-build";
  std::map<std::string, pugi::xml_node> suites;
  for (const auto& c : cases) {
    auto it = suites.find(c.suite);
    if (it == suites.end()) {
      auto s = root.append_child("testsuite");
      s.append_attribute("name") = xml_text(c.suite).c_str();
      it = suites.emplace(c.suite, s).first;
    }
    auto tc = it->second.append_child("testcase");
    tc.append_attribute("classname") = xml_text(c.suite).c_str();
    tc.append_attribute("name") = xml_text(c.name).c_str();
    // Milliseconds: what a step's clock can tell, and what JUnit readers show.
    tc.append_attribute("time") = fmt::format("{:.3f}", c.seconds).c_str();
    if (c.status == "failed") {
      tc.append_child("failure").append_attribute("message") = xml_text(c.message).c_str();
    } else if (c.status == "not-run") {
      tc.append_child("skipped");
    }
  }
  std::ostringstream out;
  doc.save(out, "  ");
  return out.str();
}

}  // namespace reviewer::report

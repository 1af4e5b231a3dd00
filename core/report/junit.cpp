#include "core/report/junit.h"

#include <map>
#include <pugixml.hpp>
#include <sstream>

namespace reviewer::report {

std::string to_junit(const std::vector<TestCase>& cases) {
  pugi::xml_document doc;
  auto root = doc.append_child("testsuites");
  root.append_attribute("name") = "review-build";
  std::map<std::string, pugi::xml_node> suites;
  for (const auto& c : cases) {
    auto it = suites.find(c.suite);
    if (it == suites.end()) {
      auto s = root.append_child("testsuite");
      s.append_attribute("name") = c.suite.c_str();
      it = suites.emplace(c.suite, s).first;
    }
    auto tc = it->second.append_child("testcase");
    tc.append_attribute("classname") = c.suite.c_str();
    tc.append_attribute("name") = c.name.c_str();
    tc.append_attribute("time") = c.seconds;
    if (c.status == "failed") {
      tc.append_child("failure").append_attribute("message") = c.message.c_str();
    } else if (c.status == "not-run") {
      tc.append_child("skipped");
    }
  }
  std::ostringstream out;
  doc.save(out, "  ");
  return out.str();
}

}  // namespace reviewer::report

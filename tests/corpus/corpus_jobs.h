#pragma once
// How a host would ask for a corpus job: the first combination of a matrix job, and the event
// description of a pull request to the corpus file's repository.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/expr/value.h"
#include "core/plan/event_facts.h"

namespace reviewer::plan {

// The first combination a matrix-combination-required message lists ("...: a=1, b=x | a=2, ..."),
// as the NAME=VALUE pairs a host would pass.
inline std::vector<std::pair<std::string, std::string>> first_combination(
    const std::string& message) {
  const std::string marker = "the combinations are: ";
  std::string first = message.substr(message.find(marker) + marker.size());
  first = first.substr(0, first.find(" | "));
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t at = 0;
  while (at < first.size()) {
    auto end = first.find(", ", at);
    std::string pair = first.substr(at, end == std::string::npos ? std::string::npos : end - at);
    auto eq = pair.find('=');
    if (eq != std::string::npos && pair.find('{') == std::string::npos) {
      out.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
    }
    at = end == std::string::npos ? first.size() : end + 2;
  }
  return out;
}

// The event description a host would give for a pull request of the corpus file's repository
// (files are named OWNER__REPO__WORKFLOW).
inline expr::Object event_for(const std::string& file) {
  const auto cut = file.find("__");
  const std::string owner = file.substr(0, cut);
  const std::string repo = file.substr(cut + 2, file.find("__", cut + 2) - cut - 2);
  const std::string json =
      R"({"sha":"0000000000000000000000000000000000000001","actor":"contributor",)"
      R"("event":{"number":1,"pull_request":{"number":1,"title":"A change","body":"",)"
      R"("base":{"ref":"main"},"head":{"ref":"feature","sha":")"
      "0000000000000000000000000000000000000002" +
      std::string(R"(","repo":{"fork":true}}},)") + R"("repository":{"full_name":")" + owner + "/" +
      repo + R"(","owner":{"login":")" + owner + R"("}}}})";
  auto facts = read_event_facts(json, "main", "'" + file + "'");
  EXPECT_TRUE(facts) << facts.error().to_string();
  return facts ? *facts : expr::Object{};
}

}  // namespace reviewer::plan

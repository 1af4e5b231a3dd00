#pragma once

#include <string>
#include <utility>

#include "core/report/refusal.h"
#include "core/util/text.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// How many refusals one pass lists. GitHub's own reader stops at 10 errors; aliases can repeat
// one refused step thousands of times within the node bound, and every refusal is an entry of
// each report (14,000 of them took 91 MiB as SARIF, issue 37).
inline constexpr std::size_t kMaxListedRefusals = 1000;

// Collects every refusal of one planning pass, so a user can fix them all at once: the first
// kMaxListedRefusals, then one too-many-refusals saying the rest were left out.
class Findings {
 public:
  void refuse(std::string rule, std::string message, const util::SourceLocation& where) {
    add({std::move(rule), std::move(message), where});
  }
  void refuse(std::string rule, std::string message, const yaml::Node& at) {
    refuse(std::move(rule), std::move(message), at.location);
  }
  void add(report::Refusal r);
  bool empty() const { return count_ == 0; }
  // Every refusal made, those left out included: callers compare it before and after a check.
  std::size_t size() const { return count_; }
  report::Refusals take() { return std::move(refusals_); }

 private:
  report::Refusals refusals_;
  std::size_t count_ = 0;
};

// Values in the planner's messages are quoted as everywhere else.
using util::quote;

}  // namespace reviewer::plan

#pragma once

#include <string>
#include <utility>

#include "core/report/refusal.h"
#include "core/util/text.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// Collects every refusal of one planning pass, so a user can fix them all at once.
class Findings {
 public:
  void refuse(std::string rule, std::string message, const util::SourceLocation& where) {
    refusals_.push_back({std::move(rule), std::move(message), where});
  }
  void refuse(std::string rule, std::string message, const yaml::Node& at) {
    refuse(std::move(rule), std::move(message), at.location);
  }
  void add(report::Refusal r) { refusals_.push_back(std::move(r)); }
  bool empty() const { return refusals_.empty(); }
  std::size_t size() const { return refusals_.size(); }
  report::Refusals take() { return std::move(refusals_); }

 private:
  report::Refusals refusals_;
};

// Values in the planner's messages are quoted as everywhere else.
using util::quote;

}  // namespace reviewer::plan

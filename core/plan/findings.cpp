#include "core/plan/findings.h"

namespace reviewer::plan {

void Findings::add(report::Refusal r) {
  ++count_;
  if (count_ <= kMaxListedRefusals) {
    refusals_.push_back(std::move(r));
  } else if (count_ == kMaxListedRefusals + 1) {
    // Still a refusal: the plan is refused whatever the ones left out say.
    refusals_.push_back(util::refusal("too-many-refusals",
                                      "more than " + std::to_string(kMaxListedRefusals) +
                                          " refusals; the review lists the first " +
                                          std::to_string(kMaxListedRefusals) +
                                          " and leaves out the rest",
                                      r.location));
  }
}

}  // namespace reviewer::plan

#include "core/expr/budget.h"

#include "core/util/check.h"

namespace reviewer::expr {
namespace {

// The open SharedBudget of this thread: the planner evaluates a workflow's fields far from where
// the pass begins (plan_workflow), through callers that pass no budget along. One thread plans
// one workflow at a time, and only the outermost pass sets or clears it.
thread_local SharedBudget* t_shared = nullptr;

std::string mib(std::size_t bytes) {
  return std::to_string(bytes) + " bytes (" + std::to_string(bytes >> 20) + " MiB)";
}

}  // namespace

SharedBudget::SharedBudget() : outermost_(t_shared == nullptr) {
  if (outermost_) {
    t_shared = this;
  }
}

SharedBudget::~SharedBudget() {
  if (outermost_) {
    t_shared = nullptr;
  }
}

Budget::Budget() : shared_(t_shared) {}

bool Budget::spend(std::size_t bytes) {
  // Compared as differences: `bytes` may be anything a caller was about to build.
  if (bytes > kMaxBuiltBytes - built_) {
    crossed_ = Crossed::kBuilt;
    return false;
  }
  if (shared_ != nullptr && bytes > kMaxPlanBytes - shared_->built_) {
    crossed_ = Crossed::kShared;
    return false;
  }
  built_ += bytes;
  if (shared_ != nullptr) {
    shared_->built_ += bytes;
  }
  return true;
}

bool Budget::add_string(std::size_t length, std::size_t added) {
  if (length > kMaxStringBytes) {
    crossed_ = Crossed::kString;
    return false;
  }
  return spend(added);
}

bool Budget::add_item(std::size_t count, std::size_t bytes) {
  if (count > kMaxItems) {
    crossed_ = Crossed::kItems;
    return false;
  }
  return spend(bytes);
}

bool Budget::add_bytes(std::size_t bytes) { return spend(bytes); }

util::Refusal Budget::refusal(const std::string& what) const {
  REVIEWER_CHECK(crossed_ != Crossed::kNone);
  std::string message = what;
  switch (crossed_) {
    case Crossed::kString:
      message += " makes a string longer than " + mib(kMaxStringBytes) + ", the bound of one value";
      break;
    case Crossed::kItems:
      message += " makes an array or object of more than " + std::to_string(kMaxItems) +
                 " items, the bound of one value";
      break;
    case Crossed::kBuilt:
      message += " takes what the expression builds past " + mib(kMaxBuiltBytes) +
                 ", the bound of one evaluation";
      break;
    case Crossed::kShared:
    case Crossed::kNone:  // checked above
      message += " takes what the workflow's expressions build together past " +
                 mib(kMaxPlanBytes) + ", the bound of one plan";
      break;
  }
  return util::Refusal{"expression-too-large", std::move(message), std::nullopt,
                       util::RefusalKind::kBound};
}

}  // namespace reviewer::expr

#pragma once

#include <utility>
#include <variant>

#include "core/util/check.h"
#include "core/util/refusal.h"

namespace reviewer::util {

// The one outcome type of the core: a value, or every refusal that stands in its way (never
// none). The subset of std::expected we need; failures are values, never exceptions.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT(google-explicit-constructor)
  Result(Refusal r) : v_(Refusals{std::move(r)}) {}  // NOLINT(google-explicit-constructor)
  Result(Refusals rs) : v_(std::move(rs)) {          // NOLINT(google-explicit-constructor)
    REVIEWER_CHECK(!std::get<1>(v_).empty());
  }

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & {
    REVIEWER_CHECK(ok());
    return std::get<0>(v_);
  }
  const T& value() const& {
    REVIEWER_CHECK(ok());
    return std::get<0>(v_);
  }
  T&& value() && {
    REVIEWER_CHECK(ok());
    return std::get<0>(std::move(v_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  // The first refusal, for callers that name one.
  const Refusal& error() const { return refusals().front(); }
  // Every refusal, in the order found.
  const Refusals& refusals() const {
    REVIEWER_CHECK(!ok());
    return std::get<1>(v_);
  }

 private:
  std::variant<T, Refusals> v_;
};

struct Unit {};
using Status = Result<Unit>;
inline Status ok_status() { return Unit{}; }

// A Status from a list where empty means ok (the shape of a collecting check).
inline Status status_of(Refusals rs) {
  if (rs.empty()) {
    return ok_status();
  }
  return rs;
}

// Appends every refusal of `r` to `out`, nothing when it holds a value: how a collecting check
// gathers the refusals of its parts before status_of(out).
template <class T>
void append_refusals(Refusals& out, const Result<T>& r) {
  if (!r.ok()) {
    out.insert(out.end(), r.refusals().begin(), r.refusals().end());
  }
}

}  // namespace reviewer::util

#pragma once

#include "core/util/result.h"

namespace reviewer::test_support {

// Every refusal of `r`, none when it holds a value: what a test asserts on, without aborting on
// an outcome it did not expect (Result::refusals() checks that there are some).
template <class T>
util::Refusals refusals_of(const util::Result<T>& r) {
  return r ? util::Refusals{} : r.refusals();
}

}  // namespace reviewer::test_support

#pragma once

#include <algorithm>
#include <chrono>

namespace reviewer::exec {

// poll(2)'s timeout for waiting until `deadline`: milliseconds rounded up, so that a wait never
// ends before it; -1 (no timeout) for time_point::max(); at most a minute (callers loop).
inline int poll_timeout_ms(std::chrono::steady_clock::time_point deadline) {
  if (deadline == std::chrono::steady_clock::time_point::max()) {
    return -1;
  }
  const auto left =
      std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
          .count();
  return static_cast<int>(std::clamp<long long>(left, 0, 60'000));
}

}  // namespace reviewer::exec

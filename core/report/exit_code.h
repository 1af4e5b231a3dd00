#pragma once

namespace reviewer::report {

// Exit codes shared by `reviewer` and `reviewer-launch`.
enum class ExitCode : int {
  kOk = 0,
  kBuildFailed = 1,
  kUsage = 2,
  kRefused = 3,
  kInternal = 4,
};

inline int to_int(ExitCode c) { return static_cast<int>(c); }

}  // namespace reviewer::report

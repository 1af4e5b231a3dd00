#pragma once

#include <string>

#include "core/contract/attestation.h"

namespace reviewer::host {

// A fresh nonce for one exec of the launcher: 32 random bytes, hex.
std::string make_nonce();

// Whether the host may take the launcher's verdict: its exit `status`, the `last_line` it
// printed (the verdict with its attestation), the report.json copied out of the sandbox
// (`report_path`; missing when the launcher wrote none), the `nonce` the host handed it and what
// the host asked for (`expected`: assignment and image). Trusted only when the line's MAC is the
// nonce's over the line's verdict, the assignment, the image and the report's digest, the
// report's own attestation holds and says the same verdict, and the exit code is that verdict's.
struct VerdictCheck {
  bool trusted = false;
  std::string verdict;  // the verdict line without its attestation
  std::string why;      // when not trusted
};
VerdictCheck check_verdict(int status, const std::string& last_line, const std::string& report_path,
                           const std::string& nonce, const contract::AttestedFacts& expected);

}  // namespace reviewer::host

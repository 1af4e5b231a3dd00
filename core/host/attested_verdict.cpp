#include "core/host/attested_verdict.h"

#include <fcntl.h>
#include <sys/random.h>

#include <array>

#include "core/util/check.h"
#include "core/util/file_read.h"
#include "core/util/hmac.h"

namespace reviewer::host {
namespace {

VerdictCheck untrusted(const std::string& why) { return {false, "", why}; }

// The exit codes a verdict may come with (report/exit_code.h).
bool status_fits(const std::string& kind, int status) {
  if (kind == "review-build-ok") {
    return status == 0;
  }
  if (kind == "review-build-refused") {
    return status == 3;
  }
  return kind == "review-build-failed" && (status == 1 || status == 4);
}

}  // namespace

std::string make_nonce() {
  std::array<unsigned char, 32> bytes{};
  REVIEWER_CHECK(::getrandom(bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size()));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    out += kHex[b >> 4];
    out += kHex[b & 0xf];
  }
  return out;
}

VerdictCheck check_verdict(int status, const std::string& last_line, const std::string& report_path,
                           const std::string& nonce, const contract::AttestedFacts& expected) {
  const auto [verdict, mac] = contract::split_verdict_line(last_line);
  if (mac.empty()) {
    return untrusted("the launcher's last line carries no attestation");
  }
  const std::string kind = contract::verdict_kind(verdict);
  if (!status_fits(kind, status)) {
    return untrusted("exit code " + std::to_string(status) + " does not go with '" + kind + "'");
  }
  std::string report;
  auto text = util::read_regular_file(AT_FDCWD, report_path, {.max_bytes = 64 << 20});
  if (text) {
    report = *text;
  } else if (util::file_fault(text.error()) != util::FileFault::kMissing) {
    return untrusted("report.json: " + text.error().message);
  }
  contract::AttestedFacts f = expected;
  f.verdict = kind;
  if (!report.empty()) {
    auto digest = contract::report_digest(report);
    if (!digest) {
      return untrusted(digest.error().message);
    }
    f.report_sha256 = *digest;
  }
  bool holds = util::equal_in_constant_time(mac, contract::attestation_mac(nonce, f));
  if (!holds && kind == "review-build-refused" && report.empty()) {
    // A refusal before the launcher read the image description names no image.
    f.image.clear();
    holds = util::equal_in_constant_time(mac, contract::attestation_mac(nonce, f));
  }
  if (!holds) {
    return untrusted(
        "the verdict line's attestation is not this review's nonce's over its "
        "verdict, assignment, image and report");
  }
  if (!report.empty()) {
    auto facts = contract::verify_report(nonce, report);
    if (!facts) {
      return untrusted("report.json: " + facts.error().message);
    }
    if (facts->verdict != kind) {
      return untrusted("report.json says " + facts->verdict + ", the verdict line " + kind);
    }
  }
  return {true, verdict, ""};
}

}  // namespace reviewer::host

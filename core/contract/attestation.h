#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/contract/assignment.h"
#include "core/util/result.h"

namespace reviewer::contract {

// The environment variable through which the host hands the launcher a fresh nonce for one exec
// (docs/host.md). The launcher takes it out of its own environment before anything else runs.
inline constexpr const char* kNonceVariable = "REVIEWER_VERDICT_NONCE";

// What a verdict is attested over: its kind ("review-build-ok", "-failed", "-refused"), the
// assignment, the image's name and the SHA-256 of the JSON report without its attestation
// (empty when the launcher wrote none).
struct AttestedFacts {
  std::string verdict;
  std::string workflow;
  std::string job;
  std::string base;
  std::string matrix;
  std::string image;
  std::string report_sha256;
};

// The facts of a verdict on `assignment` in `image`, before the verdict and the report's digest
// are known: what the host expects and the launcher starts from.
AttestedFacts attested_facts(const Assignment& assignment, const std::string& image);

// HMAC-SHA256 keyed by `nonce` over `facts`, each field length-delimited (a JSON array), hex.
std::string attestation_mac(const std::string& nonce, const AttestedFacts& facts);

// A nonce is exactly 32 random bytes written as 64 lowercase hex digits, as the host makes it:
// a shorter one (an empty one above all) could be guessed and a report forged with it.
inline constexpr std::size_t kNonceHexDigits = 64;
bool valid_nonce(std::string_view nonce);

// Reads the nonce from this process's environment and removes it there, so no child of the
// launcher (every step) inherits it. nullopt when the host gave none; refused `nonce-invalid`
// when the variable is set to anything but a valid nonce (an empty value included).
util::Result<std::optional<std::string>> take_nonce();

// The suffix a verdict line carries: " attestation=HEX".
inline constexpr const char* kLineMarker = " attestation=";

// The verdict line `line` split into the verdict and its MAC; the MAC is empty when the line
// carries none.
std::pair<std::string, std::string> split_verdict_line(const std::string& line);

// The verdict's kind: the line up to its first ':' ("review-build-failed: x" ->
// "review-build-failed").
std::string verdict_kind(const std::string& verdict_line);

// report.json's attested members, written into `report` (the document, its "verdict" set) here
// and read back by verify_report(), so writer and reader share one schema: "assignment" (workflow,
// job, base, matrix) and "image" from `facts`, then "attestation", the HMAC over `facts` (their
// verdict and report digest filled in from `report`) keyed by `nonce` with the digest
// ({"hmac_sha256", "report_sha256"}), or "unattested" without a nonce. Returns the MAC, empty
// without a nonce.
std::string attest_report(nlohmann::json& report, AttestedFacts& facts,
                          const std::optional<std::string>& nonce);

// A report.json written with an attestation, checked against `nonce`: its verdict, assignment
// and image, as the report states them, when the MAC over them and over the report's own
// digest is the nonce's. Errors (rule `verdict-unattested`) say what does not hold; a nonce
// that is not valid_nonce() is refused `nonce-invalid` before anything is read.
util::Result<AttestedFacts> verify_report(const std::string& nonce, const std::string& json_text);

// The SHA-256 of a report.json's text without its "attestation" member (what the MAC covers);
// an error when the text is not a JSON object.
util::Result<std::string> report_digest(const std::string& json_text);

}  // namespace reviewer::contract

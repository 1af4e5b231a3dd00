#include "core/contract/attestation.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/util/hmac.h"
#include "core/util/sha256.h"

namespace reviewer::contract {
namespace {

util::Refusal unattested(const std::string& why) {
  return util::refusal("verdict-unattested", why);
}

// The report as its digest sees it: parsed, without "attestation", dumped as the writer dumps
// it (members sorted, two-space indent), so a re-indented copy still verifies.
std::optional<nlohmann::json> parse_object(const std::string& text) {
  auto doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) {
    return std::nullopt;
  }
  return doc;
}

std::string digest_of(nlohmann::json doc) {
  doc.erase("attestation");
  return util::sha256_hex(doc.dump(2) + "\n");
}

std::string string_at(const nlohmann::json& doc, const char* key) {
  auto it = doc.find(key);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

util::Refusal invalid_nonce(std::string_view nonce) {
  return util::refusal("nonce-invalid",
                       fmt::format("a verdict nonce must be {} lowercase hex digits (32 random "
                                   "bytes); this one has {} characters{}",
                                   kNonceHexDigits, nonce.size(),
                                   nonce.size() == kNonceHexDigits ? ", not all hex" : ""));
}

}  // namespace

std::string attestation_mac(const std::string& nonce, const AttestedFacts& f) {
  const nlohmann::json fields = {
      "reviewer-verdict-v1", f.verdict, f.workflow, f.job, f.base, f.matrix, f.image,
      f.report_sha256};
  return util::hmac_sha256_hex(nonce, fields.dump());
}

bool valid_nonce(std::string_view nonce) {
  return nonce.size() == kNonceHexDigits && std::all_of(nonce.begin(), nonce.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

util::Result<std::optional<std::string>> take_nonce() {
  const char* value = std::getenv(kNonceVariable);
  if (value == nullptr) {
    return std::optional<std::string>();
  }
  std::string nonce = value;
  ::unsetenv(kNonceVariable);
  if (!valid_nonce(nonce)) {
    return invalid_nonce(nonce);
  }
  return std::optional<std::string>(std::move(nonce));
}

std::pair<std::string, std::string> split_verdict_line(const std::string& line) {
  const auto at = line.rfind(kLineMarker);
  if (at == std::string::npos) {
    return {line, ""};
  }
  return {line.substr(0, at), line.substr(at + std::string(kLineMarker).size())};
}

std::string verdict_kind(const std::string& verdict_line) {
  return verdict_line.substr(0, verdict_line.find(':'));
}

util::Result<std::string> report_digest(const std::string& json_text) {
  auto doc = parse_object(json_text);
  if (!doc) {
    return unattested("the report is not a JSON object");
  }
  return digest_of(std::move(*doc));
}

AttestedFacts attested_facts(const Assignment& assignment, const std::string& image) {
  return {"", assignment.workflow, assignment.job, assignment.base, assignment.matrix, image, ""};
}

std::string attest_report(nlohmann::json& report, AttestedFacts& facts,
                          const std::optional<std::string>& nonce) {
  report["assignment"] = {{"workflow", facts.workflow},
                          {"job", facts.job},
                          {"base", facts.base},
                          {"matrix", facts.matrix}};
  report["image"] = facts.image;
  facts.verdict = string_at(report, "verdict");
  facts.report_sha256 = digest_of(report);
  if (!nonce) {
    report["attestation"] = "unattested";
    return "";
  }
  const std::string mac = attestation_mac(*nonce, facts);
  report["attestation"] = {{"hmac_sha256", mac}, {"report_sha256", facts.report_sha256}};
  return mac;
}

util::Result<AttestedFacts> verify_report(const std::string& nonce, const std::string& json_text) {
  if (!valid_nonce(nonce)) {
    return invalid_nonce(nonce);
  }
  auto doc = parse_object(json_text);
  if (!doc) {
    return unattested("the report is not a JSON object");
  }
  const auto att = doc->find("attestation");
  if (att == doc->end() || !att->is_object()) {
    return unattested("the report carries no attestation");
  }
  AttestedFacts f;
  f.verdict = string_at(*doc, "verdict");
  const auto assignment = doc->find("assignment");
  if (assignment != doc->end() && assignment->is_object()) {
    f.workflow = string_at(*assignment, "workflow");
    f.job = string_at(*assignment, "job");
    f.base = string_at(*assignment, "base");
    f.matrix = string_at(*assignment, "matrix");
  }
  f.image = string_at(*doc, "image");
  const std::string mac = string_at(*att, "hmac_sha256");
  f.report_sha256 = digest_of(*doc);
  if (!util::equal_in_constant_time(mac, attestation_mac(nonce, f))) {
    return unattested(
        "the report's attestation is not this nonce's over its verdict, "
        "assignment, image and content");
  }
  return f;
}

}  // namespace reviewer::contract

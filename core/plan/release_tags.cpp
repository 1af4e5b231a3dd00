#include "core/plan/release_tags.h"

#include <algorithm>
#include <cctype>

namespace reviewer::plan {
namespace {

std::vector<long> numbers(const std::string& tag) {
  std::vector<long> out;
  std::size_t at = 1;
  while (at < tag.size()) {
    std::size_t end = tag.find('.', at);
    out.push_back(
        std::stol(tag.substr(at, end == std::string::npos ? std::string::npos : end - at)));
    at = end == std::string::npos ? tag.size() : end + 1;
  }
  return out;
}

}  // namespace

bool is_release_tag(const std::string& ref) {
  if (ref.size() < 2 || ref[0] != 'v' || ref.size() > 32) {
    return false;
  }
  int parts = 1;
  bool digit = false;
  for (std::size_t i = 1; i < ref.size(); ++i) {
    if (ref[i] == '.') {
      if (!digit || ++parts > 3) {
        return false;
      }
      digit = false;
    } else if (std::isdigit(static_cast<unsigned char>(ref[i])) != 0) {
      digit = true;
    } else {
      return false;
    }
  }
  return digit;
}

std::vector<plugins::ReviewedRef> releases_named(const plugins::Claim& claim,
                                                 const std::string& ref, bool pinned_only) {
  std::vector<plugins::ReviewedRef> out;
  for (const auto& r : claim.refs) {
    if (r.sha == ref) {
      return {r};
    }
  }
  if (pinned_only || !is_release_tag(ref)) {
    return out;
  }
  for (const auto& r : claim.refs) {
    if (is_release_tag(r.tag) && (r.tag == ref || r.tag.starts_with(ref + "."))) {
      out.push_back(r);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return numbers(a.tag) > numbers(b.tag); });
  return out;
}

}  // namespace reviewer::plan

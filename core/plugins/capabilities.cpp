#include "core/plugins/capabilities.h"

#include <array>
#include <sstream>
#include <utility>

namespace reviewer::plugins {
namespace {

constexpr std::array<std::pair<std::uint32_t, const char*>, 2> kNames = {{
    {REVIEWER_CAPABILITY_CHECKOUT, "checkout"},
    {REVIEWER_CAPABILITY_BEFORE_CHECKOUT, "before-checkout"},
}};

constexpr std::uint32_t kKnown = REVIEWER_CAPABILITY_CHECKOUT | REVIEWER_CAPABILITY_BEFORE_CHECKOUT;

}  // namespace

std::string capability_words(std::uint32_t mask) {
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if ((mask & bit) != 0) {
      out += (out.empty() ? "" : ",") + std::string(name);
    }
  }
  return out.empty() ? "-" : out;
}

std::optional<std::uint32_t> parse_capability_words(const std::string& words) {
  if (words == "-") {
    return 0;
  }
  std::uint32_t mask = 0;
  std::istringstream in(words);
  for (std::string word; std::getline(in, word, ',');) {
    std::uint32_t bit = 0;
    for (const auto& [b, name] : kNames) {
      bit = word == name ? b : bit;
    }
    if (bit == 0 || (mask & bit) != 0) {
      return std::nullopt;
    }
    mask |= bit;
  }
  return mask == 0 ? std::nullopt : std::optional<std::uint32_t>(mask);
}

std::string check_capabilities(std::uint32_t mask) {
  if ((mask & ~kKnown) != 0) {
    return "capability bits no SDK defines (" + std::to_string(mask & ~kKnown) + ")";
  }
  if ((mask & REVIEWER_CAPABILITY_CHECKOUT) != 0 &&
      (mask & REVIEWER_CAPABILITY_BEFORE_CHECKOUT) != 0) {
    return "both checkout and before-checkout: a checkout writes the worktree";
  }
  return "";
}

}  // namespace reviewer::plugins

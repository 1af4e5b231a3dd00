#pragma once

#include <reviewer/sdk/abi.h>

#include <cstdint>
#include <optional>
#include <string>

namespace reviewer::plugins {

// A claim's REVIEWER_CAPABILITY_* mask (abi.h) as the words the index and messages use:
// "checkout", "before-checkout", joined by ','; "-" for none.
std::string capability_words(std::uint32_t mask);
// The inverse; nullopt for a word it does not know or a word given twice.
std::optional<std::uint32_t> parse_capability_words(const std::string& words);

// Empty when `mask` is one a claim may hold; otherwise what is wrong with it, for a message: a
// bit no SDK defines, or a step that both checks out and stands before the checkout.
std::string check_capabilities(std::uint32_t mask);

}  // namespace reviewer::plugins

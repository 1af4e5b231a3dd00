// What a plugin handles, stated once in C++ and turned into the descriptor's C claim by
// REVIEWER_PLUGIN.
#pragma once

#include <reviewer/sdk/abi.h>

#include <cstddef>
#include <span>
#include <string_view>

namespace reviewer::sdk {

// A reviewed commit of the action: its full 40-hex SHA and the release tag it was confirmed
// against.
using ReviewedRef = reviewer_reviewed_ref;

// The action id a plugin handles and its reviewed refs:
//   constexpr reviewer::sdk::Claim kClaim{"actions/setup-node", {{"<sha>", "v6.0.0"}, ...}};
// or `Claim{"run"}` for run steps, which have none. The action id is lower-case (the core
// compares ids lower-cased). A constant: the descriptor points into it, so nothing runs when
// the library is loaded.
template <std::size_t N>
struct Claim {
  const char* action;
  ReviewedRef refs[N];

  constexpr std::span<const ReviewedRef> reviewed() const { return {refs, N}; }
  // The release tag `ref` was reviewed against; empty when `ref` is none of the reviewed SHAs.
  constexpr std::string_view tag_of(std::string_view ref) const {
    for (const auto& r : refs) {
      if (ref == r.sha) {
        return r.tag;
      }
    }
    return {};
  }
  constexpr reviewer_claim to_c() const { return {action, refs, N}; }
};

template <>
struct Claim<0> {
  const char* action;

  constexpr std::span<const ReviewedRef> reviewed() const { return {}; }
  constexpr std::string_view tag_of(std::string_view) const { return {}; }
  constexpr reviewer_claim to_c() const { return {action, nullptr, 0}; }
};

Claim(const char*)->Claim<0>;
template <std::size_t N>
Claim(const char*, const ReviewedRef (&)[N]) -> Claim<N>;

}  // namespace reviewer::sdk

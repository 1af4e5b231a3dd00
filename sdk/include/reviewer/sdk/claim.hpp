// What a plugin handles, stated once in C++ and turned into the descriptor's C claim by
// REVIEWER_PLUGIN.
#pragma once

#include <reviewer/sdk/abi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace reviewer::sdk {

// A reviewed commit of the action: its full 40-hex SHA and the release tag it was confirmed
// against.
using ReviewedRef = reviewer_reviewed_ref;

// The action id a plugin handles, its reviewed refs and the date they were checked:
//   constexpr reviewer::sdk::Claim kClaim{"actions/setup-node", {{"<sha>", "v6.0.0"}, ...},
//                                         "2026-11-30"};
// with the action's capabilities (abi.h) after the date where it has any, or `Claim{"run"}` for
// run steps, which have none. The action id is lower-case (the core
// compares ids lower-cased). A constant: the descriptor points into it, so nothing runs when
// the library is loaded.
template <std::size_t N>
struct Claim {
  const char* action;
  ReviewedRef refs[N];
  // The date (YYYY-MM-DD) `refs` was last checked against the action's release tags, so that a
  // tag names no release newer than these as of then; the plan says it with every tag it takes.
  const char* reviewed_on = nullptr;
  // SDK 1.10: REVIEWER_CAPABILITY_* bits (abi.h), e.g. REVIEWER_CAPABILITY_CHECKOUT for an action
  // that checks the repository out.
  std::uint32_t capabilities = 0;

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
  const char* reviewed_on = nullptr;  // `run` reviews no releases
  std::uint32_t capabilities = 0;

  constexpr std::span<const ReviewedRef> reviewed() const { return {}; }
  constexpr std::string_view tag_of(std::string_view) const { return {}; }
  constexpr reviewer_claim to_c() const { return {action, nullptr, 0}; }
};

Claim(const char*)->Claim<0>;
template <std::size_t N>
Claim(const char*, const ReviewedRef (&)[N]) -> Claim<N>;
template <std::size_t N>
Claim(const char*, const ReviewedRef (&)[N], const char*) -> Claim<N>;
template <std::size_t N>
Claim(const char*, const ReviewedRef (&)[N], const char*, std::uint32_t) -> Claim<N>;

}  // namespace reviewer::sdk

#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace reviewer::plan {

// GitHub's branch filter patterns: `*` (any run without '/'), `**` (any run), `?` (one char),
// and a leading `!` that negates (the last matching pattern decides). Returns nullopt when a
// pattern uses syntax we do not decide exactly (`+`, `[...]`, escapes).
std::optional<bool> glob_match(std::string_view pattern, std::string_view name);

// Whether `branches:` patterns admit `base`; nullopt if undecidable.
std::optional<bool> branches_admit(const std::vector<std::string>& patterns, std::string_view base);

}  // namespace reviewer::plan

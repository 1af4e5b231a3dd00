#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace reviewer::credentials {

// A secret-shaped string in a text. Only `shown` may ever be printed: it is the shape's public
// keyword followed by "…" (for a private key, its BEGIN line), never a character of the secret.
struct TokenMatch {
  std::string_view kind;   // gitleaks' rule id for the shape, e.g. github-pat
  std::string_view label;  // what it is, e.g. "a GitHub personal access token"
  std::size_t offset = 0;  // where the match starts in the text
  std::string shown;
};

// Every token of the shapes shared/reference/env-policy.md lists, found the way gitleaks finds
// them: a keyword first, then the exact shape at it (prefix, alphabet, length and the boundaries
// gitleaks requires around it), then gitleaks' entropy floor of 3 bits per character so that a
// placeholder such as `ghp_xxxx…` is not a token. Ordered by offset.
std::vector<TokenMatch> find_tokens(std::string_view text);

}  // namespace reviewer::credentials

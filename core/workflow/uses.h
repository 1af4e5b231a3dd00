#pragma once

#include <string>
#include <string_view>

namespace reviewer::workflow {

// `owner/repo[/path]@ref` split at the last '@': the action id lower-cased (GitHub compares
// owners and repositories without regard to case) and the ref as written. Without an '@' the
// whole text is the action and the ref is empty; no other validation happens here.
struct UsesRef {
  std::string action;
  std::string ref;
  bool has_at = false;
};
UsesRef split_uses(std::string_view uses);

}  // namespace reviewer::workflow

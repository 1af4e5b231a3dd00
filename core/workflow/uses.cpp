#include "core/workflow/uses.h"

#include <algorithm>
#include <cctype>

namespace reviewer::workflow {

UsesRef split_uses(std::string_view uses) {
  UsesRef out;
  const auto at = uses.rfind('@');
  out.has_at = at != std::string_view::npos;
  out.action = std::string(uses.substr(0, at));
  std::transform(out.action.begin(), out.action.end(), out.action.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (out.has_at) {
    out.ref = std::string(uses.substr(at + 1));
  }
  return out;
}

}  // namespace reviewer::workflow

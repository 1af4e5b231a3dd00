#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace reviewer::plan {

// GitHub's branch filter patterns, decided exactly where the documented meaning is certain:
// `*` (a run without '/'), `**` (any run), `[...]` (one character listed or in a range of
// a-z, A-Z, 0-9), literal characters. `?`, `+` and `\` are documented inconsistently (`?` is
// "zero or one character" in one version of GitHub's cheat sheet and "zero or one of the
// preceding character" in another), so a pattern using them is decided only when its literal
// head already rules the name out; otherwise nullopt (undecidable). The caller handles `!`.
std::optional<bool> glob_match(std::string_view pattern, std::string_view name);

// Whether `branches:` patterns admit `base` (the last matching pattern decides, `!` negates);
// nullopt if a pattern that could decide it is undecidable.
std::optional<bool> branches_admit(const std::vector<std::string>& patterns, std::string_view base);

}  // namespace reviewer::plan

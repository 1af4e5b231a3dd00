#pragma once

#include <string>
#include <vector>

#include "core/plugins/plugin_library.h"

namespace reviewer::plan {

// The reviewed releases a `uses:` ref can name, newest first: a full commit SHA names the one
// release reviewed at it; a release tag (`v4`, `v4.3`, `v4.3.1`) names every reviewed release of
// its line, since the tag moves along the line as releases come out. Empty when the ref names
// no reviewed release, or (`pinned_only`, the reference spec's rule) when it is not a reviewed
// SHA.
std::vector<plugins::ReviewedRef> releases_named(const plugins::Claim& claim,
                                                 const std::string& ref, bool pinned_only);

// True when `ref` has the shape of a release tag: v, then one to three dot-separated numbers.
bool is_release_tag(const std::string& ref);

}  // namespace reviewer::plan

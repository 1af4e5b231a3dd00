#pragma once

#include "core/util/refusal.h"

namespace reviewer::report {

// The core's one refusal type (core/util/refusal.h), under the name the renderers use.
using util::Refusal;
using util::Refusals;

}  // namespace reviewer::report

#pragma once

#include <string>
#include <string_view>

#include "core/resolve/node_schedule.h"
#include "core/util/result.h"

namespace reviewer::deps {

// The Node.js Release working group's schedule as the npm package node-releases ships it
// (data/release-schedule/release-schedule.json: {"v18": {"start": D, "lts": D, "codename": N,
// ...}, ...}), from line 18 on, with `source` saying where it was read. Error invalid-catalogue
// for text that is not that shape.
util::Result<resolve::NodeSchedule> parse_release_schedule(std::string_view text,
                                                           std::string source);

}  // namespace reviewer::deps

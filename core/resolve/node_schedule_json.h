#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/resolve/json_validator.h"
#include "core/resolve/node_schedule.h"
#include "core/util/result.h"

namespace reviewer::resolve {

// The JSON form of the Release working group's schedule that the runtime matrix and the runtime
// catalogue both record under "node_schedule":
//   {"source": "...", "lines": {"26": {"start": D, "lts": D, "codename": N}, ...}}
// A line is named by its major version; "start" is required, "lts" and "codename" optional (a
// codename only with an lts date); dates are YYYY-MM-DD.

// Validates `ns` (at the pointer /node_schedule) into `out`, its lines ascending by major.
util::Status parse_node_schedule(const nlohmann::json& ns, const JsonValidator& check,
                                 NodeSchedule& out);

// `schedule` in the form above on one line, lines ascending by major, absent fields left out;
// parse_node_schedule reads it back to the same schedule.
std::string render_node_schedule(const NodeSchedule& schedule);

}  // namespace reviewer::resolve

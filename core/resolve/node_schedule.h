#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace reviewer::resolve {

// One Node.js release line of the Release working group's schedule, as the trusted matrix
// records it (matrix/runtime-matrix.json "node_schedule"). Dates are YYYY-MM-DD.
struct NodeLine {
  int major = 0;
  std::string start;     // its first release
  std::string lts;       // when it became LTS; empty for a line that never does
  std::string codename;  // its LTS name ("Lithium"); empty for a line that never is LTS
};

struct NodeSchedule {
  std::string source;           // where the schedule was read from, for messages
  std::vector<NodeLine> lines;  // ascending by major
};

// The aliases actions/setup-node resolves against a release index, which the schedule answers
// for a given date: `lts/*` (the newest LTS line), `lts/-N` (the Nth older one), `lts/<codename>`
// (any letter case), and `node`, `latest`, `current` (the newest released line). setup-node takes
// the newest release of that line; the review takes the line, whose image the matrix carries.
bool is_schedule_alias(std::string_view value);

struct AliasLine {
  int major = 0;
  std::string why;  // "the newest LTS line on 2026-12-01: 'Lithium', LTS since 2026-10-28"
};

// The line `alias` names on `today` (YYYY-MM-DD): only lines released by then, and for the lts
// forms only lines LTS by then. Refuses invalid-declaration naming the alias when no line
// answers it (a codename not LTS yet, lts/-N past the oldest, no date).
util::Result<AliasLine> resolve_node_alias(std::string_view alias, const NodeSchedule& schedule,
                                           std::string_view today);

// Today's date in UTC, YYYY-MM-DD: the date the review resolves aliases on, as CI resolves them
// on the day it runs.
std::string today_utc();

}  // namespace reviewer::resolve

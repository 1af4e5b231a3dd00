#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/util/source_location.h"

namespace reviewer::workflow {

// A literal `name: value` pair (an `env:` entry or a `with:` input) with where it was written.
struct Entry {
  std::string name;
  std::string value;
  util::SourceLocation location;
};

// One step as written, literal values only (the planner refuses anything else before a Step is
// handed to a plugin).
struct Step {
  std::string job_id;
  std::uint32_t index = 0;
  std::optional<std::string> name;
  std::string action;  // "owner/repo[/path]" of `uses:`, or "run"
  std::string ref;     // after '@' in `uses:`
  std::string run;     // the script of a `run:` step
  std::optional<std::string> shell;
  std::optional<std::string> working_directory;
  std::optional<std::string> if_condition;
  std::optional<std::int64_t> timeout_minutes;
  std::vector<Entry> inputs;  // `with:`
  std::vector<Entry> env;     // the step's own `env:`
  util::SourceLocation location;
  util::SourceLocation uses_location;
  util::SourceLocation timeout_location;

  bool is_run() const { return action == "run"; }
};

}  // namespace reviewer::workflow

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
  // `value` is the text as written, with `${{ }}` the launcher evaluates when the step runs
  // (it reads steps, needs, env or job status); otherwise it is the final value.
  bool run_time = false;
  // The value is the run's GITHUB_TOKEN (`${{ secrets.GITHUB_TOKEN }}` or `${{ github.token }}`,
  // alone), which only the real run has: `value` keeps the expression as written, and only a
  // plugin that says the token's value cannot change its decision accepts it.
  bool run_token = false;
};

// One step as the planner read it: every value known before the job starts is final (its
// expressions evaluated); what only the run knows is kept as written and marked run_time.
struct Step {
  std::string job_id;
  std::uint32_t index = 0;
  std::optional<std::string> name;
  std::optional<std::string> id;  // names the step in the `steps` context
  std::string action;             // "owner/repo[/path]" of `uses:`, or "run"
  std::string ref;                // after '@' in `uses:`
  std::string run;                // the script of a `run:` step
  bool run_time_script = false;   // `run` is as written; the launcher substitutes its `${{ }}`
  std::optional<std::string> shell;
  std::optional<std::string> working_directory;
  std::optional<std::string> if_condition;
  std::optional<std::int64_t> timeout_minutes;
  bool continue_on_error = false;  // a failure is the step's outcome, not the job's
  std::vector<Entry> inputs;       // `with:`
  std::vector<Entry> env;          // the step's own `env:`
  util::SourceLocation location;
  util::SourceLocation uses_location;
  util::SourceLocation timeout_location;

  bool is_run() const { return action == "run"; }
  // `uses: ./path`: an action of the repository itself, `action` holding the path as written.
  bool is_local() const { return action.starts_with("./") || action.starts_with("../"); }
};

}  // namespace reviewer::workflow

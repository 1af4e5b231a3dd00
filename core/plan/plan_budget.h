#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/plan/findings.h"
#include "core/util/source_location.h"
#include "core/workflow/model.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// What one planning pass may hold (issue 37), besides the workflow's own tree (yaml::Bounds) and
// what its expressions build (expr::SharedBudget): the workflow's steps as written (the plugins'
// view of them), every planned job and step with its text, and the files called workflows and
// local actions load. The planner copies: the workflow env into every job, a step into the view
// and into the plan, and YAML aliases let a few bytes name a job or a step thousands of times.
// Each copy is counted, so the plan's size follows what the workflow makes it hold, not what it
// writes. The largest real workflows plan to a few hundred KiB (79 steps in 15 jobs at most in
// tests/corpus); 16 MiB keeps `reviewer plan` under 64 MiB (tests/bench/plan_memory.sh).
inline constexpr std::size_t kMaxPlannedBytes = std::size_t{16} << 20;
// What a job and a step hold beyond their text, rounded up from what they measure: a job's
// contexts, needs, pins and record (about 9 KB), a step's record and locations (about 1 KB).
inline constexpr std::size_t kJobBytes = 8 << 10;
inline constexpr std::size_t kStepBytes = 1 << 10;
// What an entry of an env or of a step's `with:` holds beyond its text. In the plan it is about
// 110 bytes; printed as JSON (`--format json` builds the whole document first) about 1.4 KB, so
// a 24,000-name workflow env (the largest the node bound admits, tests/bench/plan_bench.cpp)
// took 48 MiB as JSON in one job and 83 MiB copied into two. Counted at 512: that workflow is
// still planned, once.
inline constexpr std::size_t kEntryBytes = 512;
// What a node of a loaded YAML file holds beyond its text.
inline constexpr std::size_t kNodeBytes = 160;
// A plan's text is counted twice: printing the plan as JSON (`reviewer plan --format json`) holds
// it again, in the document and in the printed text, and a plan of mebibyte env values went past
// 64 MiB as JSON with its text counted once.
inline constexpr std::size_t kTextCopies = 2;

// Counts what one planning pass holds against kMaxPlannedBytes; the first charge that crosses it
// is refused (plan-too-large, into the findings given), once, and every later charge fails too,
// so the planner stops planning at once.
class PlanBudget {
 public:
  explicit PlanBudget(Findings& findings) : findings_(findings) {}
  PlanBudget(const PlanBudget&) = delete;
  PlanBudget& operator=(const PlanBudget&) = delete;

  // Adds what `what` ("job 'build'") makes the plan hold at `where`: `bytes` of structure and
  // `text` bytes of text (counted kTextCopies times); false once the total is past the bound.
  bool charge(std::size_t bytes, std::size_t text, const std::string& what,
              const util::SourceLocation& where);
  bool exceeded() const { return exceeded_; }

 private:
  Findings& findings_;
  std::size_t used_ = 0;
  bool exceeded_ = false;
};

// What entries of an env (or `with:`) hold beyond their text: kEntryBytes each.
std::size_t entry_bytes(const std::vector<workflow::Entry>& entries);
// Their text: names, values and their locations' file names.
std::size_t text_bytes(const std::vector<workflow::Entry>& entries);
// What a step holds beyond its text: kStepBytes, and the entries of its inputs and env.
std::size_t step_bytes(const workflow::Step& step);
// Its text: its script, names, action and ref, condition, inputs and env, and its locations'
// file names.
std::size_t text_bytes(const workflow::Step& step);
// What a loaded YAML tree holds: kNodeBytes a node, and its scalars.
std::size_t tree_bytes(const yaml::Node& node);

}  // namespace reviewer::plan

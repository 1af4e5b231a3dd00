#include "core/plan/plan_budget.h"

namespace reviewer::plan {

bool PlanBudget::charge(std::size_t bytes, std::size_t text, const std::string& what,
                        const util::SourceLocation& where) {
  if (exceeded_) {
    return false;
  }
  // Cannot wrap: text is at most what the loader's and the expressions' bounds let exist.
  bytes += kTextCopies * text;
  if (bytes <= kMaxPlannedBytes - used_) {
    used_ += bytes;
    return true;
  }
  exceeded_ = true;
  findings_.refuse("plan-too-large",
                   what + " takes the plan past " + std::to_string(kMaxPlannedBytes) + " bytes (" +
                       std::to_string(kJobBytes) + " a job, " + std::to_string(kStepBytes) +
                       " a step, " + std::to_string(kEntryBytes) +
                       " an env or input entry, and twice their text: the workflow env counts in "
                       "every job it is copied into, each step once more as written); the review "
                       "plans at most that much",
                   where);
  return false;
}

std::size_t entry_bytes(const std::vector<workflow::Entry>& entries) {
  return kEntryBytes * entries.size();
}

std::size_t step_bytes(const workflow::Step& step) {
  return kStepBytes + entry_bytes(step.inputs) + entry_bytes(step.env);
}

// Every location holds the file's name, as every node and JSON object that has one: with a long
// path, that is most of an entry.
std::size_t text_bytes(const std::vector<workflow::Entry>& entries) {
  std::size_t n = 0;
  for (const auto& e : entries) {
    n += e.name.size() + e.value.size() + e.location.file.size();
  }
  return n;
}

std::size_t text_bytes(const workflow::Step& step) {
  const auto optional = [](const std::optional<std::string>& s) { return s ? s->size() : 0; };
  return step.job_id.size() + optional(step.name) + optional(step.id) + step.action.size() +
         step.ref.size() + step.run.size() + optional(step.shell) +
         optional(step.working_directory) + optional(step.if_condition) +
         step.location.file.size() + step.uses_location.file.size() +
         step.timeout_location.file.size() + text_bytes(step.inputs) + text_bytes(step.env);
}

std::size_t tree_bytes(const yaml::Node& node) {
  std::size_t n = kNodeBytes + node.scalar.size();
  for (const auto& item : node.items) {
    n += tree_bytes(item);
  }
  for (const auto& [key, value] : node.entries) {
    n += tree_bytes(key) + tree_bytes(value);
  }
  return n;
}

}  // namespace reviewer::plan

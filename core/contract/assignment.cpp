#include "core/contract/assignment.h"

#include <utility>

#include "core/plan/event_facts.h"
#include "core/plan/matrix.h"

namespace reviewer::contract {
namespace {

constexpr const char* kWorkflowVar = "REVIEWER_CI_WORKFLOW";
constexpr const char* kJobVar = "REVIEWER_CI_JOB";
constexpr const char* kBaseVar = "REVIEWER_CI_BASE";
constexpr const char* kMatrixVar = "REVIEWER_CI_MATRIX";
constexpr const char* kPinnedOnlyVar = "REVIEWER_CI_PINNED_ONLY";
constexpr const char* kEventVar = "REVIEWER_CI_EVENT";
constexpr const char* kSameRepositoryVar = "REVIEWER_CI_SAME_REPOSITORY";

bool safe_workflow_path(const std::string& p) {
  if (!p.starts_with(".github/workflows/")) {
    return false;
  }
  if (p.find("..") != std::string::npos || p.find("//") != std::string::npos) {
    return false;
  }
  if (!(p.ends_with(".yml") || p.ends_with(".yaml"))) {
    return false;
  }
  for (unsigned char c : p) {
    if (c < 0x21 || c > 0x7e) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::vector<std::string> assignment_environment(const Assignment& a) {
  const std::string pinned = a.pinned_only ? "true" : "";
  const std::string same = a.same_repository ? "true" : "";
  std::vector<std::string> env;
  for (auto [var, value] : {std::pair{kWorkflowVar, &a.workflow},
                            {kJobVar, &a.job},
                            {kBaseVar, &a.base},
                            {kMatrixVar, &a.matrix},
                            {kPinnedOnlyVar, &pinned},
                            {kEventVar, &a.event},
                            {kSameRepositoryVar, &same}}) {
    env.push_back(std::string(var) + "=" + *value);
  }
  return env;
}

util::Result<Assignment> read_assignment_environment(const std::map<std::string, std::string>& env,
                                                     const std::string& where) {
  Assignment a;
  for (auto [var, field] : {std::pair{kWorkflowVar, &a.workflow}, std::pair{kJobVar, &a.job},
                            std::pair{kBaseVar, &a.base}}) {
    auto it = env.find(var);
    if (it == env.end() || it->second.empty()) {
      return util::refusal("assignment-missing", std::string(var) + " is not set " + where);
    }
    *field = it->second;
  }
  if (auto it = env.find(kMatrixVar); it != env.end()) {
    a.matrix = it->second;
  }
  if (auto it = env.find(kEventVar); it != env.end()) {
    a.event = it->second;
  }
  for (auto [var, flag] :
       {std::pair{kPinnedOnlyVar, &a.pinned_only}, {kSameRepositoryVar, &a.same_repository}}) {
    if (auto it = env.find(var); it != env.end() && !it->second.empty()) {
      if (it->second != "true") {
        return util::refusal("assignment-invalid",
                             std::string(var) + " is '" + it->second + "'; it is 'true' or unset");
      }
      *flag = true;
    }
  }
  return check_assignment(std::move(a));
}

util::Result<Assignment> check_assignment(Assignment a) {
  if (!safe_workflow_path(a.workflow)) {
    return util::refusal("assignment-invalid",
                         "REVIEWER_CI_WORKFLOW '" + a.workflow +
                             "' is not a .yml/.yaml file under .github/workflows/");
  }
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < a.matrix.size();) {
    const auto nl = a.matrix.find('\n', at);
    const auto end = nl == std::string::npos ? a.matrix.size() : nl;
    lines.push_back(a.matrix.substr(at, end - at));
    at = end + 1;
  }
  auto choice = plan::parse_matrix_choice(lines);
  if (!choice) {
    return choice.refusals();
  }
  a.matrix_choice = std::move(*choice);
  if (!a.event.empty()) {
    auto facts = plan::read_event_facts(a.event, a.base, std::string("in ") + kEventVar);
    if (!facts) {
      return facts.refusals();
    }
    a.event_facts = std::move(*facts);
  }
  return a;
}

util::Status check_caller_environment(const Assignment& assigned, char** caller_env) {
  if (caller_env == nullptr) {
    return util::ok_status();
  }
  for (char** e = caller_env; *e != nullptr; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq == std::string::npos) {
      continue;
    }
    std::string name = entry.substr(0, eq);
    std::string value = entry.substr(eq + 1);
    const std::string* expected = nullptr;
    if (name == kWorkflowVar) {
      expected = &assigned.workflow;
    }
    if (name == kJobVar) {
      expected = &assigned.job;
    }
    if (name == kBaseVar) {
      expected = &assigned.base;
    }
    if (name == kMatrixVar) {
      expected = &assigned.matrix;
    }
    const std::string pinned = assigned.pinned_only ? "true" : "";
    if (name == kPinnedOnlyVar) {
      expected = &pinned;
    }
    const std::string same = assigned.same_repository ? "true" : "";
    if (name == kSameRepositoryVar) {
      expected = &same;
    }
    if (name == kEventVar) {
      expected = &assigned.event;
    }
    if (expected != nullptr && value != *expected && name == kEventVar) {
      // Up to 96 KiB of JSON each: named, not shown.
      return util::refusal("assignment-mismatch", "the caller's " + name +
                                                      " is not the event description the "
                                                      "sandbox was assigned");
    }
    if (expected != nullptr && value != *expected) {
      return util::Refusal{"assignment-mismatch",
                           "the caller's " + name + " is '" + value +
                               "' but the sandbox was assigned '" + *expected + "'",
                           std::nullopt};
    }
  }
  return util::ok_status();
}

plan::PlanRequest plan_request(const Assignment& a, const plan::RepositoryFiles* files) {
  return plan::PlanRequest{a.workflow,    a.job, a.base,        a.matrix_choice,
                           a.pinned_only, files, a.event_facts, a.same_repository};
}

}  // namespace reviewer::contract

#include "core/plan/trigger.h"

#include <algorithm>
#include <array>
#include <vector>

#include "core/plan/branch_filter.h"
#include "core/workflow/expression.h"

namespace reviewer::plan {
namespace {

// GitHub's pull_request activity types; a workflow naming another is invalid there.
constexpr std::array kActivityTypes = {"assigned",
                                       "unassigned",
                                       "labeled",
                                       "unlabeled",
                                       "opened",
                                       "edited",
                                       "closed",
                                       "reopened",
                                       "synchronize",
                                       "converted_to_draft",
                                       "ready_for_review",
                                       "locked",
                                       "unlocked",
                                       "review_requested",
                                       "review_request_removed",
                                       "auto_merge_enabled",
                                       "auto_merge_disabled",
                                       "milestoned",
                                       "demilestoned",
                                       "enqueued",
                                       "dequeued"};

// A scalar or a list of scalars as strings; nullopt (with a refusal) otherwise.
std::optional<std::vector<std::string>> string_list(const yaml::Node& n, const std::string& what,
                                                    Findings& f) {
  std::vector<std::string> out;
  if (n.is_scalar()) {
    out.push_back(n.scalar);
  } else if (n.is_sequence()) {
    for (const auto& item : n.items) {
      if (!item.is_scalar()) {
        f.refuse("trigger-invalid", what + " must list strings", item);
        return std::nullopt;
      }
      out.push_back(item.scalar);
    }
  } else {
    f.refuse("trigger-invalid", what + " must be a string or a list of strings", n);
    return std::nullopt;
  }
  for (const auto& s : out) {
    if (workflow::contains_expression(s)) {
      f.refuse("trigger-invalid", what + " holds an expression: " + quote(s), n);
      return std::nullopt;
    }
  }
  return out;
}

void check_branches(const yaml::Node& value, const std::string& base, Findings& f) {
  auto names = string_list(value, "'pull_request.branches'", f);
  if (!names) {
    return;
  }
  auto admitted = branches_admit(*names, base);
  if (!admitted) {
    f.refuse("trigger-filter-undecidable",
             "'pull_request.branches' uses a pattern ('?', '+' or an escape) that cannot be "
             "decided exactly for base " +
                 quote(base),
             value);
  } else if (!*admitted) {
    f.refuse("trigger-base-not-covered",
             "'pull_request.branches' does not include the base branch " + quote(base), value);
  }
}

void check_branches_ignore(const yaml::Node& value, const std::string& base, Findings& f) {
  auto names = string_list(value, "'pull_request.branches-ignore'", f);
  if (!names) {
    return;
  }
  for (const auto& p : *names) {
    auto m = p.starts_with("!") ? std::nullopt : glob_match(p, base);
    if (!m) {
      f.refuse("trigger-filter-undecidable",
               "'pull_request.branches-ignore' pattern " + quote(p) +
                   " cannot be decided exactly for base " + quote(base),
               value);
      return;
    }
    if (*m) {
      f.refuse("trigger-base-not-covered",
               "'pull_request.branches-ignore' pattern " + quote(p) + " excludes the base branch " +
                   quote(base),
               value);
      return;
    }
  }
}

void check_types(const yaml::Node& value, Findings& f) {
  auto types = string_list(value, "'pull_request.types'", f);
  if (!types) {
    return;
  }
  for (const auto& t : *types) {
    if (std::find(kActivityTypes.begin(), kActivityTypes.end(), t) == kActivityTypes.end()) {
      f.refuse("trigger-invalid", "'pull_request.types' names no activity type " + quote(t), value);
      return;
    }
  }
  bool builds_head = std::any_of(types->begin(), types->end(), [](const std::string& t) {
    return t == "opened" || t == "synchronize" || t == "reopened";
  });
  if (!builds_head) {
    f.refuse("trigger-types",
             "'pull_request.types' includes none of opened, synchronize, reopened: CI would not "
             "build the pull request's head when it is opened or pushed",
             value);
  }
}

void check_pull_request(const yaml::Node& pr, const std::string& base, Findings& f) {
  if (pr.is_null()) {
    return;
  }
  if (!pr.is_mapping()) {
    f.refuse("trigger-invalid", "'pull_request' must be empty or a mapping", pr);
    return;
  }
  for (const auto& [one, other] :
       {std::pair{"branches", "branches-ignore"}, std::pair{"paths", "paths-ignore"}}) {
    if (pr.find(one) != nullptr && pr.find(other) != nullptr) {
      f.refuse("trigger-invalid",
               std::string("'pull_request' has both '") + one + "' and '" + other +
                   "', which GitHub rejects",
               *pr.find_key(other));
    }
  }
  for (const auto& [key, value] : pr.entries) {
    const std::string& k = key.scalar;
    if (k == "branches") {
      check_branches(value, base, f);
    } else if (k == "branches-ignore") {
      check_branches_ignore(value, base, f);
    } else if (k == "types") {
      check_types(value, f);
    } else if (k == "paths" || k == "paths-ignore") {
      // Shape only: the host chose to review this job, so a path filter that would have
      // skipped it on CI makes the build unnecessary, never its verdict wrong (docs/planner.md).
      (void)string_list(value, "'pull_request." + k + "'", f);
    } else {
      f.refuse("trigger-invalid", "unknown 'pull_request' filter " + quote(k), key);
    }
  }
}

}  // namespace

void check_trigger(const yaml::Node& root, const std::string& base, Findings& f) {
  const yaml::Node* on = root.find("on");
  if (on == nullptr) {
    f.refuse("trigger-missing", "the workflow has no 'on' trigger",
             util::SourceLocation{root.location.file, 1, 1});
    return;
  }
  if (on->is_scalar()) {
    if (on->scalar != "pull_request") {
      f.refuse("trigger-missing", "'on' is " + quote(on->scalar) + ", not 'pull_request'", *on);
    }
    return;
  }
  if (on->is_sequence()) {
    bool found = false;
    for (const auto& item : on->items) {
      if (!item.is_scalar()) {
        // Filters (`types`, `branches`) need the mapping form; GitHub rejects them in a list.
        f.refuse("trigger-invalid", "a list of events under 'on' holds event names only", item);
        return;
      }
      found = found || item.scalar == "pull_request";
    }
    if (!found) {
      f.refuse("trigger-missing", "'on' does not include 'pull_request'", *on);
    }
    return;
  }
  if (on->is_mapping()) {
    const yaml::Node* pr = on->find("pull_request");
    if (pr == nullptr) {
      f.refuse("trigger-missing", "'on' does not include 'pull_request'", *on);
      return;
    }
    check_pull_request(*pr, base, f);
    return;
  }
  f.refuse("trigger-missing", "'on' is empty", *on);
}

}  // namespace reviewer::plan

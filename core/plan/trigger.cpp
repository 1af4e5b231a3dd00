#include "core/plan/trigger.h"

#include <vector>

#include "core/plan/branch_filter.h"
#include "core/workflow/expression.h"

namespace reviewer::plan {
namespace {

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
      f.refuse("trigger-invalid", what + " holds an expression", n);
      return std::nullopt;
    }
  }
  return out;
}

void check_pull_request(const yaml::Node& pr, const std::string& base, Findings& f) {
  if (pr.is_null()) return;
  if (!pr.is_mapping()) {
    f.refuse("trigger-invalid", "'pull_request' must be empty or a mapping", pr);
    return;
  }
  for (const auto& [key, value] : pr.entries) {
    const std::string& k = key.scalar;
    if (k == "branches") {
      auto names = string_list(value, "'pull_request.branches'", f);
      if (!names) continue;
      auto admitted = branches_admit(*names, base);
      if (!admitted) {
        f.refuse("trigger-filter-undecidable",
                 "'pull_request.branches' uses a pattern that cannot be decided exactly for base " +
                     quote(base),
                 value);
      } else if (!*admitted) {
        f.refuse("trigger-base-not-covered",
                 "'pull_request.branches' does not include the base branch " + quote(base), value);
      }
    } else if (k == "branches-ignore") {
      auto names = string_list(value, "'pull_request.branches-ignore'", f);
      if (!names) continue;
      for (const auto& p : *names) {
        auto m = glob_match(p, base);
        if (!m || p.starts_with("!")) {
          f.refuse(
              "trigger-filter-undecidable",
              "'pull_request.branches-ignore' pattern " + quote(p) + " cannot be decided exactly",
              value);
        } else if (*m) {
          f.refuse("trigger-base-not-covered",
                   "'pull_request.branches-ignore' excludes the base branch " + quote(base), value);
        }
      }
    } else if (k == "types") {
      auto types = string_list(value, "'pull_request.types'", f);
      if (!types) continue;
      bool any = false;
      for (const auto& t : *types) {
        any = any || t == "opened" || t == "synchronize" || t == "reopened";
      }
      if (!any) {
        f.refuse("trigger-types",
                 "'pull_request.types' includes none of opened, synchronize, reopened: CI would "
                 "not build a pushed pull request",
                 value);
      }
    } else if (k == "paths" || k == "paths-ignore") {
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
      f.refuse("trigger-missing", "'on' does not include 'pull_request'", *on);
    }
    return;
  }
  if (on->is_sequence()) {
    for (const auto& item : on->items) {
      if (item.is_scalar() && item.scalar == "pull_request") return;
    }
    f.refuse("trigger-missing", "'on' does not include 'pull_request'", *on);
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

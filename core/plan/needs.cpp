#include "core/plan/needs.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <queue>
#include <set>
#include <unordered_map>

#include "core/util/text.h"

namespace reviewer::plan {
namespace {

// GitHub matches job ids case-insensitively.
using util::lower;

}  // namespace

std::vector<Need> read_needs(const yaml::Node& job, Findings* f) {
  std::vector<Need> out;
  const yaml::Node* needs = job.is_mapping() ? job.find("needs") : nullptr;
  if (needs == nullptr) {
    return out;
  }
  if (needs->is_scalar()) {
    out.push_back({needs->scalar, needs->location});
  } else if (needs->is_sequence()) {
    for (const auto& n : needs->items) {
      if (n.is_scalar()) {
        out.push_back({n.scalar, n.location});
      } else if (f != nullptr) {
        f->refuse("needs-invalid", "'needs' must list job ids", n);
      }
    }
  } else if (f != nullptr) {
    f->refuse("needs-invalid", "'needs' must be a job id or a list of job ids", *needs);
  }
  return out;
}

std::string declared_job_id(const yaml::Node& jobs, const std::string& need) {
  if (jobs.find(need) != nullptr) {
    return need;
  }
  const std::string wanted = lower(need);
  for (const auto& [key, value] : jobs.entries) {
    if (lower(key.scalar) == wanted) {
      return key.scalar;
    }
  }
  return need;
}

bool valid_job_id(std::string_view id) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (id.empty() || !letter(id[0])) {
    return false;
  }
  for (char c : id) {
    if (!letter(c) && !(c >= '0' && c <= '9') && c != '-') {
      return false;
    }
  }
  return true;
}

namespace {

// Declaration index of every job (lower-cased id), so a hostile file with thousands of jobs stays
// linear. GitHub compares job ids without regard to case: `Build` and `build` clash (the workflow
// is rejected) and `needs: Build` names `build`.
std::unordered_map<std::string, std::size_t> index_jobs(const yaml::Node& jobs, Findings& f) {
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < jobs.entries.size(); ++i) {
    const auto& key = jobs.entries[i].first;
    if (!valid_job_id(key.scalar)) {
      f.refuse("invalid-job-id",
               "job id " + quote(key.scalar) +
                   " is not one GitHub accepts (a letter or '_', then letters, digits, '-' or "
                   "'_'); GitHub rejects the workflow",
               key);
    }
    auto [it, added] = index.emplace(lower(key.scalar), i);
    if (!added) {
      f.refuse("duplicate-job-id",
               "job ids " + quote(jobs.entries[it->second].first.scalar) + " and " +
                   quote(key.scalar) +
                   " differ only in case; GitHub compares job ids without regard to case and "
                   "rejects the workflow",
               key);
    }
  }
  return index;
}

// `roots` and every job they need, transitively, in dependency order (see needs_closure).
std::vector<std::string> closure_in_order(const yaml::Node& jobs,
                                          const std::unordered_map<std::string, std::size_t>& index,
                                          std::vector<std::size_t> pending, Findings& f) {
  const std::size_t before = f.size();
  // The closure, without recursion (a hostile chain cannot grow the stack).
  std::unordered_map<std::size_t, std::vector<std::size_t>> needs;  // job -> jobs it needs
  std::unordered_map<std::size_t, std::vector<Need>> written;
  while (!pending.empty()) {
    std::size_t id = pending.back();
    pending.pop_back();
    if (needs.count(id) != 0) {
      continue;
    }
    auto& list = needs[id];
    auto& as_written = written[id] = read_needs(jobs.entries[id].second, &f);
    for (const auto& n : as_written) {
      auto it = index.find(lower(n.job));
      if (it == index.end()) {
        f.refuse(
            "needs-unknown",
            "job " + quote(jobs.entries[id].first.scalar) + " needs unknown job " + quote(n.job),
            n.location);
        continue;
      }
      list.push_back(it->second);
      if (needs.count(it->second) == 0) {
        pending.push_back(it->second);
      }
    }
  }
  // On a refusal the plan is refused anyway; the closure's jobs still come back (declaration
  // order) so that their own refusals are collected in the same pass.
  auto declared = [&] {
    std::vector<std::size_t> ids;
    for (const auto& entry : needs) {
      ids.push_back(entry.first);
    }
    std::sort(ids.begin(), ids.end());
    std::vector<std::string> out;
    for (std::size_t id : ids) {
      out.push_back(jobs.entries[id].first.scalar);
    }
    return out;
  };
  if (f.size() != before) {
    return declared();
  }
  // Kahn's algorithm, taking ready jobs in declaration order.
  std::unordered_map<std::size_t, std::size_t> waiting;  // unmet needs per job
  std::unordered_map<std::size_t, std::vector<std::size_t>> dependents;
  for (const auto& [id, list] : needs) {
    waiting[id] += list.size();
    for (std::size_t n : list) {
      dependents[n].push_back(id);
    }
  }
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (const auto& [id, count] : waiting) {
    if (count == 0) {
      ready.push(id);
    }
  }
  std::vector<std::string> order;
  while (!ready.empty()) {
    std::size_t id = ready.top();
    ready.pop();
    order.push_back(jobs.entries[id].first.scalar);
    for (std::size_t d : dependents[id]) {
      if (--waiting[d] == 0) {
        ready.push(d);
      }
    }
  }
  if (order.size() == needs.size()) {
    return order;
  }
  // The jobs left wait on a cycle or are in one: name each at its first unmet need.
  std::vector<std::size_t> left;
  for (const auto& [id, count] : waiting) {
    if (count != 0) {
      left.push_back(id);
    }
  }
  std::sort(left.begin(), left.end());
  for (std::size_t id : left) {
    const auto& list = needs[id];
    for (std::size_t k = 0; k < list.size(); ++k) {
      if (waiting[list[k]] != 0) {
        f.refuse("needs-cycle",
                 "job " + quote(jobs.entries[id].first.scalar) + " needs " +
                     quote(jobs.entries[list[k]].first.scalar) +
                     ", which waits on a cycle of jobs that need each other",
                 written[id][k].location);
        break;
      }
    }
  }
  return declared();
}

}  // namespace

std::vector<std::string> needs_closure(const yaml::Node& jobs, const std::string& job,
                                       Findings& f) {
  const auto index = index_jobs(jobs, f);
  auto root = index.find(lower(job));
  if (root == index.end() || jobs.entries[root->second].first.scalar != job) {
    f.refuse("job-not-found", "the workflow has no job " + quote(job), jobs);
    return {};
  }
  return closure_in_order(jobs, index, {root->second}, f);
}

std::vector<std::string> all_jobs_in_order(const yaml::Node& jobs, Findings& f) {
  const auto index = index_jobs(jobs, f);
  std::vector<std::size_t> all(jobs.entries.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    all[i] = i;
  }
  return closure_in_order(jobs, index, std::move(all), f);
}

EarlierJobs::EarlierJobs(const yaml::Node& jobs, const std::vector<std::string>& closure) {
  std::map<std::string, std::vector<std::string>> direct;
  std::set<std::string> names;
  for (const auto& id : closure) {
    names.insert(id);
    std::vector<std::string>& needs = direct[id];
    if (const yaml::Node* job = jobs.find(id)) {
      for (const auto& need : read_needs(*job, nullptr)) {
        needs.push_back(declared_job_id(jobs, need.job));
        names.insert(needs.back());
      }
    }
  }
  names_.assign(names.begin(), names.end());
  for (std::size_t i = 0; i < names_.size(); ++i) {
    index_.emplace(names_[i], i);
  }
  needs_.resize(names_.size());
  in_closure_.resize(names_.size());
  for (const auto& [id, needs] : direct) {
    const std::size_t at = index_.at(id);
    in_closure_[at] = true;
    for (const auto& need : needs) {
      needs_[at].push_back(index_.at(need));
    }
  }
}

std::optional<std::vector<std::string>> EarlierJobs::of(const std::string& id) const {
  const auto it = index_.find(id);
  if (it == index_.end() || !in_closure_[it->second]) {
    return std::nullopt;
  }
  std::vector<char> before(names_.size(), 0);
  std::vector<std::size_t> pending{it->second};
  while (!pending.empty()) {
    const std::size_t at = pending.back();
    pending.pop_back();
    for (std::size_t need : needs_[at]) {
      if (before[need] == 0) {
        before[need] = 1;
        pending.push_back(need);
      }
    }
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (before[i] != 0) {
      out.push_back(names_[i]);  // names_ is sorted, and so is the list
    }
  }
  return out;
}

}  // namespace reviewer::plan

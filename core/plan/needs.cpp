#include "core/plan/needs.h"

#include <map>
#include <set>

namespace reviewer::plan {

std::vector<std::string> read_needs(const yaml::Node& job, Findings& f) {
  std::vector<std::string> out;
  const yaml::Node* needs = job.find("needs");
  if (needs == nullptr) return out;
  if (needs->is_scalar()) {
    out.push_back(needs->scalar);
  } else if (needs->is_sequence()) {
    for (const auto& n : needs->items) {
      if (n.is_scalar()) {
        out.push_back(n.scalar);
      } else {
        f.refuse("needs-invalid", "'needs' must list job ids", n);
      }
    }
  } else {
    f.refuse("needs-invalid", "'needs' must be a job id or a list of job ids", *needs);
  }
  return out;
}

std::vector<std::string> needs_closure(const yaml::Node& jobs, const std::string& job,
                                       Findings& f) {
  std::vector<std::string> order;
  if (jobs.find(job) == nullptr) {
    f.refuse("job-not-found", "the workflow has no job " + quote(job), jobs);
    return order;
  }
  enum class Mark { kNone, kVisiting, kDone };
  std::map<std::string, Mark> marks;
  bool failed = false;
  // Iterative depth-first search: the depth is bounded by the YAML bounds anyway, but no
  // recursion keeps a hostile chain from growing the stack.
  struct Frame {
    std::string id;
    std::vector<std::string> needs;
    std::size_t next = 0;
  };
  std::vector<Frame> stack;
  auto push = [&](const std::string& id) {
    marks[id] = Mark::kVisiting;
    stack.push_back({id, read_needs(*jobs.find(id), f), 0});
  };
  push(job);
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next == top.needs.size()) {
      marks[top.id] = Mark::kDone;
      order.push_back(top.id);
      stack.pop_back();
      continue;
    }
    const std::string need = top.needs[top.next++];
    const yaml::Node* need_node = jobs.find(need);
    if (need_node == nullptr) {
      f.refuse("needs-unknown", "job " + quote(top.id) + " needs unknown job " + quote(need),
               jobs.find(top.id)->location);
      failed = true;
      continue;
    }
    Mark m = marks[need];
    if (m == Mark::kVisiting) {
      std::string cycle;
      for (const auto& fr : stack) cycle += fr.id + " -> ";
      f.refuse("needs-cycle", "jobs need each other in a cycle: " + cycle + need,
               need_node->location);
      failed = true;
      continue;
    }
    if (m == Mark::kNone) push(need);
  }
  if (failed) order.clear();
  return order;
}

}  // namespace reviewer::plan

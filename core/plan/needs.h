#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/plan/findings.h"
#include "core/yaml/node.h"

namespace reviewer::plan {

// One `needs:` entry and where it was written.
struct Need {
  std::string job;
  util::SourceLocation location;
};

// GitHub's job id syntax: a letter or '_', then letters, digits, '-' or '_'.
bool valid_job_id(std::string_view id);

// The host-named `job` and every job it needs (transitively), dependencies first; where the
// graph leaves a choice, jobs come in the order the workflow declares them. Refuses
// invalid-job-id (any job of the workflow: GitHub rejects the whole file), job-not-found,
// needs-unknown, needs-invalid and needs-cycle (each once, at the `needs` entry concerned); after
// such a refusal the jobs of the closure come back in declaration order, so that the caller still
// collects their own refusals in the same pass.
std::vector<std::string> needs_closure(const yaml::Node& jobs, const std::string& job,
                                       Findings& findings);

// Every job of `jobs` (a called workflow runs them all) in dependency order, with the same
// refusals and order as needs_closure.
std::vector<std::string> all_jobs_in_order(const yaml::Node& jobs, Findings& findings);
// For each job of a closure (needs_closure), the jobs GitHub completes before it starts:
// everything it needs, transitively, by declared id, sorted. The `needs` are indexed once, and a
// job's list is built when it is asked for: the lists of every job of a chain of N jobs, kept at
// once, hold N²/2 ids (16 MB for 1,000 jobs, issue 37).
class EarlierJobs {
 public:
  EarlierJobs(const yaml::Node& jobs, const std::vector<std::string>& closure);

  // The list of job `id`; nullopt when it is not a job of the closure.
  std::optional<std::vector<std::string>> of(const std::string& id) const;

 private:
  std::vector<std::string> names_;  // every job of the closure and every need, sorted, once
  std::map<std::string, std::size_t, std::less<>> index_;  // name -> its place in names_
  std::vector<std::vector<std::size_t>> needs_;  // a job's direct needs (places); a need: none
  std::vector<bool> in_closure_;
};

// The `needs:` of one job (a string or a list of strings), refusing other shapes into
// `findings` when it is not null.
std::vector<Need> read_needs(const yaml::Node& job, Findings* findings);

// The id of the job in `jobs` that `need` names, as declared: GitHub compares job ids without
// regard to case (`needs: Build` names `build`), and the job loop gates on declared ids. `need`
// itself when no job matches (needs_closure refuses that).
std::string declared_job_id(const yaml::Node& jobs, const std::string& need);

}  // namespace reviewer::plan

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/contract/assignment.h"
#include "core/host/engine.h"
#include "core/host/interruption.h"
#include "core/host/review.h"
#include "core/plan/plan.h"
#include "core/plugins/registry.h"
#include "core/report/exit_code.h"
#include "core/report/refusal.h"
#include "core/resolve/resolver.h"

namespace reviewer::host {

// $TMPDIR, or /tmp: where a review's scratch directory goes.
std::string review_temp_dir();

// A scratch directory for the clone, removed when the review ends unless it is to be kept, also
// when the review is interrupted (interruption.h). It names this process in its owner file, so
// that `reviewer gc` removes it once this process is gone (leftovers.h).
class ReviewScratch {
 public:
  // Makes the directory; path() is empty when it could not be made.
  ReviewScratch();
  ~ReviewScratch();
  ReviewScratch(const ReviewScratch&) = delete;
  ReviewScratch& operator=(const ReviewScratch&) = delete;
  const std::string& path() const { return path_; }
  // Leaves the directory in place, and to no `reviewer gc`.
  void keep();

 private:
  std::string path_;
  bool keep_ = false;
  Held held_;
};

// One review, filled in phase by phase (review.cpp): each reads what the ones before it made.
// The members come in the order the phases make them, so the scratch directory is removed after
// all made later.
struct ReviewState {
  explicit ReviewState(const ReviewRequest& r) : request(r) {}
  const ReviewRequest& request;
  std::optional<contract::Assignment> assignment;
  std::unique_ptr<Engine> engine;
  std::optional<ReviewScratch> scratch;
  std::string clone;  // the clone of the head, in the scratch directory
  std::string head;   // the commit it is at
  std::optional<plugins::Registry> registry;
  std::optional<plan::Plan> plan;
  std::optional<resolve::Resolution> resolution;
  std::string image_id;     // the engine's id of the resolved image
  std::string reports_dir;  // where the launcher's reports come out
  SandboxLimits limits;
  std::string dependencies;  // the dependency view to mount; empty: none
  std::string worktree;      // the sandbox's worktree, beside the clone
  std::int64_t seconds = 0;  // how long the launcher may run before the host kills it
  SandboxSpec spec;
  std::optional<SandboxRun> ran;
};

// How a phase ends a review; each returns the review's exit code.

// `verdict` as stdout's last line.
int say_verdict(report::ExitCode code, const std::string& verdict);
// The host's own failure: named on stderr, the verdict names its rule.
int say_host_failure(const util::Refusal& e);
// Each refusal with the excerpt of `text` (the file `file`) it points at, then the verdict.
int say_refused(const report::Refusals& refusals, const std::string& file, const std::string& text);
// A request that cannot be carried out: `message` on stderr, and no verdict.
int say_usage(const std::string& message);

}  // namespace reviewer::host

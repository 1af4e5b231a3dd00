#pragma once

#include <optional>

#include "core/host/review_state.h"

namespace reviewer::host {

// The review's last phases, once its plan and image are known (review.cpp): what its sandbox
// gets, the sandbox itself, and what it gives back. A phase returns the review's exit code when
// it ends the review, having said why (review_state.h); nullopt lets the next one run.

// The fetch phase, before the review's sandbox exists: the reports directory made, then the
// dependency view (fetch_phase.h) in `review.dependencies`.
std::optional<int> fetch_dependencies(ReviewState& review);

// The launcher in its sandbox, under the host's own time limit; `review.ran` is how it ended.
std::optional<int> run_sandbox(ReviewState& review);

// The review's verdict: the launcher's, said again once its attestation holds; a failure when
// the host killed the launcher, or when the verdict is missing or not attested.
int verify_verdict(const ReviewState& review);

}  // namespace reviewer::host

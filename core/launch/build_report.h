#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/contract/attestation.h"
#include "core/launch/job_loop.h"
#include "core/launch/job_scratch.h"
#include "core/plan/plan.h"
#include "core/util/result.h"

namespace reviewer::launch {

// Writes report.json (the plan and every job's and step's outcome) and report.xml (JUnit; a
// build that failed without a failed step, refused or interrupted, gets a failing test case
// `review-build` / `verdict` with the reason, never an empty document) into
// the open directory `dir_fd`, shown as `dir`, each replacing whatever is under its name
// (replace_file_at). Both are attempted; the first failure is returned (report-unwritable).
//
// With `attestation`, report.json also states the assignment and the image, and both reports end
// with the attestation (docs/host.md): report.json's "attestation" member holds the HMAC-SHA256
// keyed by the nonce over the verdict, the assignment, the image and the SHA-256 of report.json
// without that member; report.xml ends with the same MAC in a comment. Without a nonce both say
// "unattested". The facts attested (verdict, report digest included) are left in `attestation`
// for the verdict line.
struct ReportAttestation {
  std::optional<std::string> nonce;
  contract::AttestedFacts facts;  // the assignment and image; the writer fills in the rest
};
util::Status write_build_reports(int dir_fd, const std::string& dir, const plan::Plan& plan,
                                 const BuildOutcome& outcome,
                                 ReportAttestation* attestation = nullptr);

// The summary a person reads at the end of the log: one row per step of every job (a job none of
// whose steps ran gets one row), with its outcome, duration and, on the job's last row, what was
// killed when the job ended; the header first, columns padded to line up. Names are escaped as
// everything a workflow chose.
std::vector<std::string> summary_table(const BuildOutcome& outcome);

// Once no step runs any more: takes the review root back from whatever a job put in its place
// and writes both reports into it. When that fails an ok verdict becomes a failure naming
// report-unwritable (review-build-ok means a report says so too), and whatever can still be
// written is written again with that verdict.
void publish_build_reports(JobScratch& scratch, const plan::Plan& plan, BuildOutcome& outcome,
                           exec::LogSink& log, ReportAttestation* attestation = nullptr);

}  // namespace reviewer::launch

#pragma once

#include <string>
#include <vector>

#include "core/report/refusal.h"
#include "core/util/result.h"
#include "core/workflow/model.h"

namespace reviewer::exec {

struct GithubFileUpdates {
  std::vector<workflow::Entry> env;     // from GITHUB_ENV, in order
  std::vector<std::string> path;        // from GITHUB_PATH, in order (each is prepended)
  std::vector<workflow::Entry> output;  // from GITHUB_OUTPUT, in order (a later one wins)
};

// Parses what a step appended to GITHUB_ENV and GITHUB_OUTPUT (`NAME=value` and `NAME<<DELIM`
// heredoc lines, as the runner reads them) and GITHUB_PATH (one directory a line), checking
// every GITHUB_ENV key against the env policy. `step_label` names the step in messages. Every
// forbidden key, malformed line or path is refused, and then nothing is applied: the build fails.
util::Result<GithubFileUpdates> parse_github_files(const std::string& env_text,
                                                   const std::string& path_text,
                                                   const std::string& step_label,
                                                   const std::string& output_text = {});

}  // namespace reviewer::exec

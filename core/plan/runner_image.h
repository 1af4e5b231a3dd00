#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/plugins/invoke.h"
#include "core/util/source_location.h"

namespace reviewer::plan {

// The GitHub-hosted runner image the review stands in for, in one place: the `runs-on` labels the
// planner accepts for it, and the Node a job runs there when none of its steps selects one. It is
// a fact about GitHub's runner, not about the review's images (matrix/runtime-matrix.json records
// what the review builds and verifies by checksum), so it lives beside the runner-label rule and
// the plan carries it as a pin (docs/resolver.md, "The runner's default Node").
struct RunnerImage {
  std::string_view image;         // the runner image the labels name
  std::string_view labels[2];     // the `runs-on` labels accepted for it
  std::string_view node_line;     // its default Node, as a range (the line its builds install)
  std::string_view node_since;    // where the runner image made that line its default
  std::string_view release;       // the runner image release the version below was read from
  std::string_view release_node;  // the exact Node that release installed (newest of the line)
  std::string_view cached_node_lines[2];  // the Node lines in its tool cache, newest first
};

inline constexpr RunnerImage kRunnerImage{
    "ubuntu-24.04",
    {"ubuntu-latest", "ubuntu-24.04"},
    // actions/runner-images #14046 (merged 2026-05-13): "Default Node.js version changed from 20
    // to 22. Node.js 20 removed"; 22 and 24 remain in the tool cache.
    "22",
    "actions/runner-images #14046",
    // actions/runner-images #14029: release 20260628.225.1 of ubuntu-24.04 shipped Node 22.23.1.
    "20260628.225.1",
    "22.23.1",
    // actions/runner-images #14046: "22 and 24 remain in the tool cache" (20 removed).
    {"24", "22"},
};

// Whether `label` names kRunnerImage.
bool is_runner_label(std::string_view label);

// The pin of a job none of whose steps pins node: the runner's default Node line, located at the
// job's `runs-on` value, described for messages ("the runner's default Node 22 (ubuntu-24.04,
// actions/runner-images #14046)").
plugins::RuntimePin runner_default_node(const util::SourceLocation& runs_on);

// The line of kRunnerImage's tool cache that a step asking `version` there first gets (setup-node
// without check-latest: `tc.find`, the highest cached version satisfying it): the newest cached
// line every release of which satisfies `version`, when `version` also admits other lines.
// nullopt when there is nothing to decide (a spec within one line selects it as written) or it
// cannot be told: a cached line only partly in it (which exact release the runner caches
// decides), none in it (CI then downloads the newest release, as the resolver reads a plain pin),
// or not a range.
std::optional<std::string> tool_cache_line(std::string_view version);

}  // namespace reviewer::plan

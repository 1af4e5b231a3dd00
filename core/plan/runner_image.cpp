#include "core/plan/runner_image.h"

#include <algorithm>
#include <iterator>

#include "core/semver/range.h"

namespace reviewer::plan {

bool is_runner_label(std::string_view label) {
  return std::find(std::begin(kRunnerImage.labels), std::end(kRunnerImage.labels), label) !=
         std::end(kRunnerImage.labels);
}

plugins::RuntimePin runner_default_node(const util::SourceLocation& runs_on) {
  return plugins::RuntimePin{"node", std::string(kRunnerImage.node_line), runs_on,
                             "the runner's default Node " + std::string(kRunnerImage.node_line) +
                                 " (" + std::string(kRunnerImage.image) + ", " +
                                 std::string(kRunnerImage.node_since) + ")"};
}

namespace {

// Whether every release (non-prerelease version) of line `major` satisfies each comparator of
// `set`: each lower bound at or below major.0.0, each upper bound in a later major.
bool set_covers_line(const std::vector<semver::Comparator>& set, std::uint64_t major) {
  const semver::Version first{major, 0, 0, {}, {}};
  for (const auto& c : set) {
    if (!c.semver) {
      continue;  // ANY
    }
    const int low = semver::compare(*c.semver, first);
    const bool covers = (c.op == ">=" && low <= 0) || (c.op == ">" && low < 0) ||
                        ((c.op == "<" || c.op == "<=") && c.semver->major > major);
    if (!covers) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<std::string> tool_cache_line(std::string_view version) {
  auto range = semver::Range::parse(version);
  if (!range) {
    return std::nullopt;
  }
  for (std::string_view line : kRunnerImage.cached_node_lines) {
    auto line_range = semver::Range::parse(line);
    const std::uint64_t major = std::stoull(std::string(line));
    if (!line_range || !range->intersects(*line_range)) {
      continue;
    }
    const bool covered = std::any_of(range->sets().begin(), range->sets().end(),
                                     [&](const auto& set) { return set_covers_line(set, major); });
    // A spec within the line selects it as written: there is nothing for the cache to decide.
    auto outside = semver::Range::parse("<" + std::string(line) +
                                        ".0.0 || >=" + std::to_string(major + 1) + ".0.0-0");
    const bool spans = outside && range->intersects(*outside);
    return covered && spans ? std::optional<std::string>(line) : std::nullopt;
  }
  return std::nullopt;
}

}  // namespace reviewer::plan

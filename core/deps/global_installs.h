#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/plan/plan.h"

// Global npm installs in run steps (`npm i -fg corepack && corepack enable`, unjs's projects):
// packages no lock names, which CI resolves against the registry when the step runs. The host
// resolves them at review time and fetches them, so the step's `npm install -g` finds them in
// npm's offline cache (docs/dependencies.md, "Global installs"). A command the reading below does
// not understand is left alone: its install then fails offline in the review, as it would
// without the network.
namespace reviewer::deps {

// One package of a global install: `name` and the spec it was asked at: "*" when none, as npm
// reads a bare name (its `latest` tag, unless that release's engines exclude the running node).
struct GlobalInstall {
  std::string name;
  std::string spec;
  bool operator==(const GlobalInstall&) const = default;
};

// The global installs of one script: each simple command (split at newlines, `;`, `&&`, `||`,
// `|`, `&`, parentheses) whose words are `npm`, an install alias (`install`, `i`, `add`, ...), a
// global flag (`-g`, `--global`, `--location=global`, or a cluster such as `-fg`) and registry
// package names with an optional `@spec`. A command with anything else (a quote, `$`, an option
// that takes a value, a URL, a path) is passed over whole.
std::vector<GlobalInstall> global_installs_of(std::string_view script);

// Every global install of `plan`'s run steps (composite actions' included), the first spec of a
// name kept.
std::vector<GlobalInstall> global_npm_installs(const plan::Plan& plan);

}  // namespace reviewer::deps

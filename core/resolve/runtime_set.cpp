#include "core/resolve/runtime_set.h"

#include <map>
#include <optional>

#include "core/resolve/release_pick.h"
#include "core/resolve/safe_file.h"
#include "core/semver/version.h"

namespace reviewer::resolve {
namespace {

struct Picked {
  const CatalogueRelease* release;
  std::string pin;  // the pin, for messages: "pin at ci.yml:9:11 '24.x'"
};

std::string describe_pin(const Pin& pin) {
  if (!pin.runner_default.empty()) {
    return pin.runner_default + " at " + pin.location.to_string();
  }
  return "pin at " + pin.location.to_string() + " " +
         quote(pin.asked.empty() ? pin.version : pin.asked);
}

// A runner's default runs what the runner image installed when it was built: its line's newest
// release then, for which the catalogue's newest on the review's date stands.
util::Result<ReleasePick> pick_pin(const Pin& pin, const RuntimeCatalogue& catalogue,
                                   std::string_view today, const std::vector<int>& cache_lines) {
  ReleaseAsk ask;
  ask.tool = pin.runtime;
  ask.today = std::string(today);
  ask.where = pin.location;
  if (!pin.runner_default.empty()) {
    ask.spec = pin.version;
    ask.check_latest = true;
    auto picked = pick_release(ask, catalogue);
    if (picked) {
      picked->why = pin.runner_default + " taken as " + picked->release->version +
                    ": the runner image installs its line's newest release when it is built, "
                    "and the catalogue's newest on " +
                    ask.today + " stands for it";
    }
    return picked;
  }
  ask.spec = pin.asked.empty() ? pin.version : pin.asked;
  ask.check_latest = !pin.tool_cache;
  if (pin.tool_cache) {
    ask.tool_cache_lines = cache_lines;
  }
  return pick_release(ask, catalogue);
}

// The one release every pin of `tool` gets, or a conflict naming two pins that differ.
util::Result<const CatalogueRelease*> agreed(const std::vector<Picked>& picks,
                                             std::string_view tool) {
  for (const auto& p : picks) {
    if (p.release != picks.front().release) {
      return util::refusal("conflicting",
                           picks.front().pin + " gives " + std::string(tool) + " " +
                               picks.front().release->version + " and " + p.pin + " gives " +
                               p.release->version +
                               ": CI runs each job on its own runner, the review runs the jobs "
                               "in one sandbox; make them agree, or review the jobs apart");
    }
  }
  return picks.empty() ? nullptr : picks.front().release;
}

std::string bundle_of(const CatalogueRelease& node, std::string_view tool) {
  return tool == "npm" ? node.npm : node.corepack;
}

// The release of `node`'s line nearest to it whose `tool` bundle is recorded: the newest before
// it, else the oldest after it.
const CatalogueRelease* stand_in(const RuntimeCatalogue& catalogue, const CatalogueRelease& node,
                                 std::string_view tool) {
  const auto major = semver::parse_version(node.version)->major;
  const auto same_line = [&](const CatalogueRelease& r) {
    return semver::parse_version(r.version)->major == major && !bundle_of(r, tool).empty();
  };
  const auto at = static_cast<std::size_t>(&node - catalogue.node.data());
  for (std::size_t i = at; i-- > 0;) {
    if (same_line(catalogue.node[i])) {
      return &catalogue.node[i];
    }
  }
  for (std::size_t i = at + 1; i < catalogue.node.size(); ++i) {
    if (same_line(catalogue.node[i])) {
      return &catalogue.node[i];
    }
  }
  return nullptr;
}

// The npm or corepack `node` bundles; nullptr for a corepack it does not bundle.
util::Result<const CatalogueRelease*> bundled(const RuntimeCatalogue& catalogue,
                                              const CatalogueRelease& node, std::string_view tool,
                                              std::vector<std::string>& decisions) {
  std::string version = bundle_of(node, tool);
  if (version.empty()) {
    const CatalogueRelease* other = stand_in(catalogue, node, tool);
    if (other == nullptr) {
      if (tool == "corepack") {
        decisions.push_back("node " + node.version +
                            ": which corepack it bundles is not recorded for any release of its "
                            "line; the review provides none");
        return nullptr;
      }
      return util::refusal("runtime-not-in-catalogue",
                           "node " + node.version + ": which " + std::string(tool) +
                               " it bundles is recorded for no release of its line in the "
                               "runtime catalogue (" +
                               catalogue.source + ")");
    }
    version = bundle_of(*other, tool);
    decisions.push_back("node " + node.version + ": which " + std::string(tool) +
                        " it bundles is not recorded (no release post of it was read); " +
                        std::string(tool) + " " + version + ", what node " + other->version +
                        " bundles, stands for it");
  }
  if (version == kNotBundled) {
    return nullptr;
  }
  return catalogue.find(tool, version);  // the catalogue's reader holds every bundle listed
}

}  // namespace

util::Result<RuntimeSet> resolve_runtime_set(const std::vector<Pin>& pins,
                                             const RuntimeCatalogue& catalogue,
                                             std::string_view today,
                                             const std::vector<int>& tool_cache_lines) {
  RuntimeSet set;
  std::map<std::string, std::vector<Picked>> picks;
  report::Refusals refusals;
  for (const Pin& pin : pins) {
    if (pin.runtime != "node" && pin.runtime != "bun") {
      continue;  // pnpm comes from the dependency store
    }
    auto picked = pick_pin(pin, catalogue, today, tool_cache_lines);
    if (!picked) {
      refusals.insert(refusals.end(), picked.refusals().begin(), picked.refusals().end());
      continue;
    }
    set.decisions.push_back(picked->why);
    picks[pin.runtime].push_back({picked->release, describe_pin(pin)});
  }
  for (const auto& [tool, picked] : picks) {
    auto one = agreed(picked, tool);
    if (!one) {
      refusals.insert(refusals.end(), one.refusals().begin(), one.refusals().end());
    } else {
      (tool == "node" ? set.node : set.bun) = *one;
    }
  }
  if (set.node != nullptr) {
    auto npm = bundled(catalogue, *set.node, "npm", set.decisions);
    auto corepack = bundled(catalogue, *set.node, "corepack", set.decisions);
    for (const auto* r : {&npm, &corepack}) {
      if (!*r) {
        refusals.insert(refusals.end(), r->refusals().begin(), r->refusals().end());
      }
    }
    if (npm && corepack) {
      set.npm = *npm;
      set.corepack = *corepack;
    }
  }
  if (!refusals.empty()) {
    return refusals;
  }
  return set;
}

}  // namespace reviewer::resolve

#include "core/resolve/resolver.h"

#include <algorithm>
#include <optional>

#include "core/resolve/node_schedule.h"
#include "core/resolve/safe_file.h"
#include "core/semver/js_text.h"
#include "core/util/check.h"

namespace reviewer::resolve {
namespace {

// "package.json engines.node \">=24\"": where a declaration comes from and what it says. A
// runner's default says its version in its source ("the runner's default Node 22 (...) at ...").
std::string describe(const Declaration& d) {
  return d.runner_default ? d.source : d.source + " " + quote(d.value);
}

// The one version of `rd.tool` the matrix has in `rd`'s range (the runner's default line), or
// nullopt when it has none (out-of-matrix decides) or several (nothing is selected).
std::optional<std::string> selected_version(const Declaration& rd, const RuntimeTable& matrix) {
  std::optional<std::string> found;
  for (const auto& image : matrix.images) {
    const auto it = image.runtimes.find(rd.tool);
    if (it == image.runtimes.end()) {
      continue;
    }
    auto version = semver::parse_version(it->second);
    if (!version || !rd.range.test(*version)) {
      continue;
    }
    if (found && *found != it->second) {
      return std::nullopt;
    }
    found = it->second;
  }
  return found;
}

// Tools in the order messages list them: the runtimes first, then package managers.
std::vector<std::string> tools_in_order(const std::vector<Declaration>& ds) {
  std::vector<std::string> tools;
  for (std::string_view tool : kKnownTools) {
    const bool used =
        std::any_of(ds.begin(), ds.end(), [&](const auto& d) { return d.tool == tool; });
    if (used) {
      tools.emplace_back(tool);
    }
  }
  return tools;
}

bool satisfies_all(const Image& image, const std::vector<Declaration>& ds) {
  for (const auto& d : ds) {
    const auto it = image.runtimes.find(d.tool);
    if (it == image.runtimes.end()) {
      return false;
    }
    auto version = semver::parse_version(it->second);
    if (!version || !d.range.test(*version)) {
      return false;
    }
  }
  return true;
}

std::string describe_image(const Image& image) {
  std::vector<std::string> parts;
  for (std::string_view tool : kKnownTools) {
    if (const auto it = image.runtimes.find(std::string(tool)); it != image.runtimes.end()) {
      parts.push_back(std::string(tool) + " " + it->second);
    }
  }
  return image.name + " (" + js::join(parts, ", ") + ")";
}

std::string describe_images(const std::vector<const Image*>& images) {
  std::vector<std::string> parts;
  for (const Image* image : images) {
    parts.push_back(describe_image(*image));
  }
  return js::join(parts, "; ");
}

// "node >=25 with bun 1.3.10 and pnpm 9.1.0": the missing image by its requirements.
std::string requirements(const std::vector<Declaration>& ds) {
  std::vector<std::string> per_tool;
  for (const auto& tool : tools_in_order(ds)) {
    std::vector<std::string> values;
    for (const auto& d : ds) {
      if (d.tool == tool && std::find(values.begin(), values.end(), d.value) == values.end()) {
        values.push_back(d.value);
      }
    }
    per_tool.push_back(tool + " " + js::join(values, ", "));
  }
  if (per_tool.empty()) {
    return "any";
  }
  std::string out = per_tool.front();
  if (per_tool.size() > 1) {
    out += " with " +
           js::join(std::vector<std::string>(per_tool.begin() + 1, per_tool.end()), " and ");
  }
  return out;
}

std::string sources(const std::vector<Declaration>& ds) {
  std::vector<std::string> parts;
  for (const auto& d : ds) {
    parts.push_back(d.source);
  }
  return js::join(parts, ", ");
}

// An alias stands for the line the schedule names on the review's date: the image of that line
// serves it, as CI takes that line's newest release. Each alias in `declarations` gets that
// line's range, and a note in `notes`; returns the aliases the schedule cannot resolve.
report::Refusals resolve_aliases(std::vector<Declaration>& declarations, const RuntimeTable& matrix,
                                 std::vector<std::string>& notes) {
  report::Refusals unresolved;
  for (auto& d : declarations) {
    if (!d.alias) {
      continue;
    }
    auto line = resolve_node_alias(d.value, matrix.node_schedule, matrix.today);
    if (!line) {
      unresolved.push_back(report::Refusal{
          line.error().rule, d.source + " " + quote(d.value) + ": " + line.error().message,
          d.location});
      continue;
    }
    auto range = semver::Range::parse(std::to_string(line->major) + ".x");
    REVIEWER_CHECK(range.ok());
    d.range = std::move(range).value();
    notes.push_back(d.source + " " + quote(d.value) + " is Node " + std::to_string(line->major) +
                    ", " + line->why + " (" + matrix.node_schedule.source +
                    "); CI installs that line's newest release");
    // Every message about it from here on says which line it stands for.
    d.value += " (Node " + std::to_string(line->major) + ")";
  }
  return unresolved;
}

// Why a declaration that does not constrain the image is reported but not enforced.
std::string unenforced_note(const Declaration& d) {
  const std::string what = d.source + " " + quote(d.tool + "@" + d.value);
  if (d.tool == "pnpm") {
    return what +
           " selects no image: pnpm is put on PATH only by a "
           "step of an action that installs it or by corepack, from the dependency "
           "store the host fetches it into";
  }
  if (d.tool == "yarn" && (d.value.starts_with("0.") || d.value.starts_with("1."))) {
    return what +
           " selects no image: without corepack the runner runs its own yarn 1.22.22, "
           "which the host fetches into the dependency store for a yarn.lock, as it "
           "fetches this release for corepack";
  }
  if (d.tool == "yarn") {
    return what +
           " selects no image: the runner's yarn 1.22.22, which the host fetches into "
           "the dependency store for a yarn.lock, hands a project of yarn 2 and later "
           "over to the release its .yarnrc.yml `yarnPath` names; after `corepack "
           "enable`, corepack runs this release, which the host fetches for its cache";
  }
  return what +
         " is not installed on CI unless a job "
         "enables corepack; the image's " +
         d.tool + " is used, as on CI";
}

// The declarations that select the image; a note in `notes` for each of the others.
std::vector<Declaration> constraining(const std::vector<Declaration>& declarations,
                                      std::vector<std::string>& notes) {
  std::vector<Declaration> ds;
  for (const auto& d : declarations) {
    if (d.constrains) {
      ds.push_back(d);
    } else {
      notes.push_back(unenforced_note(d));
    }
  }
  return ds;
}

// Where a plan pins a tool, CI runs what the job's setup step (or the runner) installs, whatever
// the worktree declares: no step installs node or bun from .nvmrc, .node-version, .tool-versions
// or package.json unless a setup step reads the file, and then its pin is that file's value. A
// package manager that checks engines (pnpm, yarn 1, npm with engine-strict) checks them in the
// review too, against the same version. So the worktree's declarations of a pinned tool do not
// select the image: each is reported, with the pins that decide instead.
std::vector<Declaration> unread_where_pinned(const std::vector<Declaration>& ds,
                                             std::vector<std::string>& notes) {
  std::vector<Declaration> kept;
  for (const auto& d : ds) {
    std::vector<std::string> pins;
    for (const auto& p : ds) {
      if (p.pinned && p.tool == d.tool) {
        pins.push_back(describe(p));
      }
    }
    if (d.pinned || pins.empty()) {
      kept.push_back(d);
      continue;
    }
    notes.push_back(describe(d) + " is reported, not enforced: CI runs the " + d.tool + " that " +
                    js::join(pins, " and ") +
                    " installs, and no step installs it from this declaration (a package manager "
                    "that checks it does so in the review too)");
  }
  return kept;
}

// Two declarations on one tool that no version satisfies together (a runner's default that
// selected its version is checked by runner_default_conflicts instead).
void range_conflicts(const std::vector<Declaration>& ds,
                     const std::vector<std::optional<std::string>>& selected,
                     report::Refusals& conflicts) {
  for (std::size_t i = 0; i < ds.size(); ++i) {
    for (std::size_t j = i + 1; j < ds.size(); ++j) {
      if (ds[i].tool != ds[j].tool || selected[i] || selected[j] ||
          ds[i].range.intersects(ds[j].range)) {
        continue;
      }
      conflicts.push_back(report::Refusal{"conflicting",
                                          describe(ds[i]) + " and " + describe(ds[j]) +
                                              " conflict: no " + ds[i].tool +
                                              " version satisfies both; make them agree",
                                          ds[j].location});
    }
  }
}

// Each declaration on a tool that the matrix's one version of a runner's default does not admit.
void runner_default_conflicts(const std::vector<Declaration>& ds,
                              const std::vector<std::optional<std::string>>& selected,
                              report::Refusals& conflicts) {
  for (std::size_t r = 0; r < ds.size(); ++r) {
    if (!selected[r]) {
      continue;
    }
    const auto version = semver::parse_version(*selected[r]);
    for (std::size_t k = 0; k < ds.size(); ++k) {
      if (ds[k].tool != ds[r].tool || ds[k].runner_default || ds[k].range.test(*version)) {
        continue;
      }
      conflicts.push_back(report::Refusal{
          "conflicting",
          describe(ds[k]) + " and " + describe(ds[r]) + " conflict: that job runs the matrix's " +
              ds[r].tool + " " + *selected[r] + ", which " + quote(ds[k].value) +
              " does not admit; make them agree, or give the job a step that installs the node "
              "they declare",
          ds[r].location});
    }
  }
}

// A job without a setup step runs the runner's default Node: the matrix's one version of that
// line stands for it, and every other declaration on the tool must admit that version (not just
// intersect the line), since no other image can serve that job.
report::Refusals conflicts_among(const std::vector<Declaration>& ds, const RuntimeTable& matrix) {
  std::vector<std::optional<std::string>> selected(ds.size());
  for (std::size_t i = 0; i < ds.size(); ++i) {
    if (ds[i].runner_default) {
      selected[i] = selected_version(ds[i], matrix);
    }
  }
  report::Refusals conflicts;
  range_conflicts(ds, selected, conflicts);
  runner_default_conflicts(ds, selected, conflicts);
  return conflicts;
}

// The one image that satisfies every declaration of `ds`.
util::Result<const Image*> the_one_image(const std::vector<Declaration>& ds,
                                         const RuntimeTable& matrix) {
  std::vector<const Image*> candidates;
  for (const auto& image : matrix.images) {
    if (satisfies_all(image, ds)) {
      candidates.push_back(&image);
    }
  }
  std::vector<const Image*> all;
  for (const auto& image : matrix.images) {
    all.push_back(&image);
  }
  if (candidates.empty()) {
    return report::Refusals{report::Refusal{"out-of-matrix",
                                            "missing image: " + requirements(ds) +
                                                " (declared by " + sources(ds) +
                                                "); the matrix has " + describe_images(all),
                                            std::nullopt}};
  }
  if (candidates.size() > 1) {
    const std::string what = ds.empty()
                                 ? std::string("no declaration names a version, and all ")
                                 : requirements(ds) + " (declared by " + sources(ds) + ") matches ";
    return report::Refusals{report::Refusal{
        "ambiguous",
        what + std::to_string(candidates.size()) + " images: " + describe_images(candidates) +
            "; declare an exact version (e.g. in .nvmrc or package.json engines) to select one",
        std::nullopt}};
  }
  return candidates.front();
}

}  // namespace

util::Result<Resolution> select_image(const DeclarationSet& set, const RuntimeTable& matrix) {
  if (!set.refusals.empty()) {
    return set.refusals;
  }
  std::vector<std::string> notes;
  std::vector<Declaration> declarations = set.declarations;
  if (auto unresolved = resolve_aliases(declarations, matrix, notes); !unresolved.empty()) {
    return unresolved;
  }
  const std::vector<Declaration> ds = unread_where_pinned(constraining(declarations, notes), notes);
  if (auto conflicts = conflicts_among(ds, matrix); !conflicts.empty()) {
    return conflicts;
  }
  auto image = the_one_image(ds, matrix);
  if (!image) {
    return image.refusals();
  }
  return Resolution{(*image)->name, (*image)->runtimes, std::move(declarations), std::move(notes)};
}

util::Result<Resolution> resolve(const std::string& worktree, const RuntimeTable& matrix,
                                 const std::vector<Pin>& pins) {
  DeclarationSet set = read_declarations(worktree);
  set.add(pin_declarations(pins));
  return select_image(set, matrix);
}

}  // namespace reviewer::resolve

// oven-sh/setup-bun: skipped when the step asks for a bun version (an exact one, or from v2.1.1 a
// range both npm semver and the action's compare-versions read alike), written in `bun-version` or
// read from `bun-version-file` with the action's own rules (bun_version_file.h, over the host's
// repository files), which becomes a pin the resolver must satisfy and the launcher verifies
// against the image's bun, and no registry configuration (a bunfig.toml write) or download
// override is in play. See README.md for the review record.
#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/plugin.hpp>
#include <reviewer/sdk/requested_version.hpp>

#include <array>
#include <regex>
#include <string>

#include "bun_version_file.h"

namespace {

// GitHub's runner images carry no Bun (actions/runner-images#9521: "decided not to add this
// tool"): `bun` works only after setup-bun core.addPath()s it. The image keeps its bun off every
// step's PATH (docker/run-model/stage-image.sh) at this fixed path, and the skip adds it through
// GITHUB_PATH, as core.addPath does, so a step that calls bun without setup-bun fails as on CI.
constexpr std::string_view kAddBunToPath =
    "printf '%s\\n' /opt/reviewer/runtimes/bun/bin >> \"$GITHUB_PATH\"\n";

constexpr reviewer::sdk::Claim kClaim{"oven-sh/setup-bun",
                                      {
                                          {"0c5077e51419868618aeaa5fe8019c62421857d6", "v2.2.0"},
                                          {"ecf28ddc73e819eb6fa29df6b34ef8921c743461", "v2.1.3"},
                                          {"3d267786b128fe76c2f16a390aa2448b815359f3", "v2.1.2"},
                                          {"db6bcf6eb8d88a8aa03265b887ec7bd84d64cd68", "v2.1.1"},
                                          {"b7a1c7ccf290d58743029c4f6903da283811b979", "v2.1.0"},
                                          {"735343b667d3e6f658f44d0eca948eb6282f2b76", "v2.0.2"},
                                          {"f4d14e03ff726c06358e5557344e1da148b56cf7", "v1.2.2"},
                                      },
                                      "2026-11-30"};

bool has_version_file(std::string_view tag) { return tag != "v1.2.2"; }
bool has_registries(std::string_view tag) {
  return tag == "v2.2.0" || tag == "v2.1.3" || tag == "v2.1.2" || tag == "v2.1.1" ||
         tag == "v2.1.0";
}
bool has_token(std::string_view tag) { return tag == "v2.2.0" || tag == "v2.1.3"; }
// package.json's engines.bun is read from v2.1.0 on (FILE_VERSION_READERS).
bool reads_engines_bun(std::string_view tag) { return tag != "v2.0.2"; }
// From v2.1.1 the action resolves a version that is not exact against oven-sh/bun's tags with
// compare-versions' satisfies (download-url.ts); before, it asked bun.sh/download, whose rules are
// not published.
bool resolves_ranges(std::string_view tag) {
  return tag == "v2.2.0" || tag == "v2.1.3" || tag == "v2.1.2" || tag == "v2.1.1";
}

bool is_number(std::string_view v) {
  return !v.empty() && v.find_first_not_of("0123456789") == v.npos && (v == "0" || v[0] != '0');
}
bool is_wildcard(std::string_view v) { return v == "x" || v == "X" || v == "*"; }

// "X.Y.Z" without leading zeros: one release (compare-versions' validateStrict without a
// prerelease or build, which name no bun release the image carries).
bool is_exact(std::string_view v) {
  static const std::regex kExact(R"((0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*))");
  return std::regex_match(v.begin(), v.end(), kExact);
}

// N, N.N, N.N.N, each part after the first possibly a wildcard, none after a wildcard.
bool is_partial(std::string_view v) {
  int parts = 0;
  bool wild = false;
  while (true) {
    const std::size_t dot = v.find('.');
    const std::string_view part = v.substr(0, dot);
    if (++parts > 3 ||
        (parts == 1 ? !is_number(part)
                    : (wild ? !is_wildcard(part) : !is_number(part) && !is_wildcard(part)))) {
      return false;
    }
    wild = wild || is_wildcard(part);
    if (dot == v.npos) {
      return true;
    }
    v.remove_prefix(dot + 1);
  }
}

// One comparator: an optional operator and a partial version. ^0.0.0 is left out: npm semver
// reads it as 0.0.0 exactly, compare-versions as any 0.x.
bool is_comparator(std::string_view c) {
  for (std::string_view op : {">=", "<=", ">", "<", "=", "^", "~"}) {
    if (c.starts_with(op)) {
      c.remove_prefix(op.size());
      return is_partial(c) && !(op == "^" && c == "0.0.0");
    }
  }
  return is_partial(c);
}

// A range npm semver (the resolver's) and the action's patched compare-versions satisfies read
// alike for every release version: alternatives joined by `||`, each a hyphen range `A - B` of
// partial versions or comparators separated by spaces; no prereleases, build metadata, `v`
// prefixes, tabs or operators standing apart from their version. docs/fidelity.md says why each
// form agrees.
bool is_portable_range(std::string_view range) {
  if (range.empty()) {
    return false;
  }
  while (true) {
    const std::size_t bars = range.find("||");
    std::string_view alt = range.substr(0, bars);
    while (alt.starts_with(' ')) {
      alt.remove_prefix(1);
    }
    while (alt.ends_with(' ')) {
      alt.remove_suffix(1);
    }
    if (alt.empty()) {
      return false;
    }
    if (const std::size_t hyphen = alt.find(" - "); hyphen != alt.npos) {
      const std::string_view from = alt.substr(0, hyphen);
      const std::string_view to = alt.substr(hyphen + 3);
      if (!is_partial(from) || !is_partial(to)) {
        return false;
      }
    } else {
      while (!alt.empty()) {
        const std::size_t sp = alt.find(' ');
        if (!is_comparator(alt.substr(0, sp))) {
          return false;
        }
        alt.remove_prefix(sp == alt.npos ? alt.size() : sp);
        while (alt.starts_with(' ')) {
          alt.remove_prefix(1);
        }
      }
    }
    if (bars == range.npos) {
      return true;
    }
    range.remove_prefix(bars + 2);
  }
}

constexpr const char* kRegistry = "it writes registry settings into bunfig.toml";

// Every input is read with getInput or getBooleanInput, which trim it first.
const auto kInputs = reviewer::sdk::read_by_get_input(std::array{
    reviewer::sdk::any_value("bun-version"),  // checked below: it becomes the pin
    // read by the host, then checked as bun-version
    reviewer::sdk::only_at(reviewer::sdk::any_value("bun-version-file"), &has_version_file),
    reviewer::sdk::refused("bun-download-url", "the review has no network and downloads nothing"),
    reviewer::sdk::only_at(reviewer::sdk::refused("registries", kRegistry), &has_registries),
    reviewer::sdk::refused("registry-url", kRegistry),
    reviewer::sdk::refused("scope", kRegistry),
    reviewer::sdk::strict_boolean("no-cache"),
    reviewer::sdk::only_at(reviewer::sdk::refused("token", "the review has no credentials"),
                           &has_token),
});

// The version the step asks for: `bun-version`, or what `bun-version-file` gives (the action
// reads the file only without a `bun-version`), with where it is written.
using Requested = reviewer::sdk::RequestedVersion;

// Reads what the step asks for, or refuses (false).
bool requested(const reviewer::sdk::StepView& step, std::string_view tag,
               reviewer::sdk::PlanDecision& decision, Requested& out) {
  const auto input = step.inputs().find("bun-version");
  const auto file = has_version_file(tag) ? step.inputs().find("bun-version-file") : std::nullopt;
  if (input && !input->value.empty()) {
    out = Requested::from_input(*input, "bun-version");
    return true;
  }
  if (!file || file->value.empty()) {
    decision.refuse("runtime-version-not-exact",
                    "oven-sh/setup-bun has no 'bun-version'" +
                        std::string(has_version_file(tag) ? " or 'bun-version-file'" : "") +
                        ": it would read package.json or install the latest bun; write an exact "
                        "X.Y.Z",
                    input ? input->location : step.uses_location());
    return false;
  }
  const bool engines_bun = reads_engines_bun(tag);
  return reviewer::sdk::read_requested_version(
      decision, *file, "oven-sh/setup-bun", "bun-version-file", "bun-version",
      "(the action warns and installs package.json's bun or the latest); write an exact X.Y.Z in "
      "it",
      [engines_bun](const reviewer::sdk::NamedFile& named,
                    const reviewer::sdk::RepositoryReader& read) {
        return setup_bun::read_bun_version_file(named, engines_bun, read);
      },
      out);
}

class SetupBun final : public reviewer::sdk::Action {
 public:
  void plan(const reviewer::sdk::StepView& step, const reviewer::sdk::JobContext&,
            reviewer::sdk::PlanDecision& decision) override {
    const auto tag = kClaim.tag_of(step.ref());
    bool ok = reviewer::sdk::check_inputs(step, kInputs, decision, kClaim);
    Requested want;
    if (!requested(step, tag, decision, want)) {
      return;
    }
    if (!is_exact(want.spec) && !(resolves_ranges(tag) && is_portable_range(want.spec))) {
      decision.refuse(
          "runtime-version-not-exact",
          "oven-sh/setup-bun " + want.source + (want.from_file ? " gives '" : " is '") +
              reviewer::sdk::printable(want.spec) + "'; " +
              (resolves_ranges(tag)
                   ? "write an exact X.Y.Z or a range npm semver and the action's compare-versions "
                     "read alike (1.3.x, ^1.3.0, >=1.2.0 <1.4.0); latest, canary, prereleases "
                     "and v prefixes are resolved online"
                   : std::string("this release resolves anything but an exact X.Y.Z online "
                                 "(bun.sh/download); write an exact X.Y.Z")),
          want.where());
      ok = false;
    }
    if (!ok) {
      return;
    }
    decision.pin("bun", want.spec, want.where());
    decision.skip("bun " + want.spec + (want.from_file ? " (" + want.where_text() + ")" : "") +
                  " goes on PATH for the job's later steps (pinned; the launcher verifies the "
                  "image's bun); no registry is configured");
  }

  void execute(const reviewer::sdk::StepView& step, reviewer::sdk::Services& services) override {
    auto input = step.inputs().find("bun-version");
    auto file = step.inputs().find("bun-version-file");
    const bool from_file = (!input || input->value.empty()) && file && !file->value.empty();
    services.log("oven-sh/setup-bun skipped: bun " +
                 (from_file ? "from " + std::string(file->value)
                            : std::string(input ? input->value : std::string_view("?"))) +
                 " is the image's bun, pinned at plan time and verified by the launcher; it goes "
                 "on PATH for the later steps of this job");
    // The host records the script's outcome: if it fails, so does this step.
    reviewer::sdk::RunRequest request;
    request.script = kAddBunToPath;
    services.run_script(request);
  }
};

}  // namespace

REVIEWER_PLUGIN(SetupBun, kClaim);

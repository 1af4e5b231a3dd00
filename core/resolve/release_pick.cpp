#include "core/resolve/release_pick.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>

#include "core/resolve/declaration.h"
#include "core/resolve/node_schedule.h"
#include "core/semver/range.h"
#include "core/semver/version.h"
#include "core/util/text.h"

// How each action decides is in docs/resolver.md, "Which release a setup step installs", with the
// lines of setup-node and setup-bun it was read from.
namespace reviewer::resolve {
namespace {

using Releases = std::vector<CatalogueRelease>;
using Span = std::span<const CatalogueRelease>;

// Whether `release` existed for CI on `today` (both YYYY-MM-DD, so text order is date order).
bool released_by(const CatalogueRelease& release, std::string_view today) {
  return release.date <= today;
}

// A release's version as CI could have met it on `today`: nullopt for one released later and for
// a prerelease, which neither setup-node's stable manifest nor a plain range admits (the catalogue
// holds none; this keeps a hand-made one honest).
std::optional<semver::Version> existing(const CatalogueRelease& release, std::string_view today) {
  if (!released_by(release, today)) {
    return std::nullopt;
  }
  auto version = semver::parse_version(release.version);
  if (!version || !version->prerelease.empty()) {
    return std::nullopt;
  }
  return std::move(*version);
}

// One ask against one tool's releases (ascending by version, as the catalogue keeps them).
class Picker {
 public:
  Picker(const ReleaseAsk& ask, const RuntimeCatalogue& catalogue, const Releases& releases)
      : ask_(ask), catalogue_(catalogue), releases_(releases) {}

  util::Result<ReleasePick> node() const {
    if (ask_.spec.empty()) {
      return invalid_declaration(
          "node '' names no release: setup-node installs nothing for an empty node-version",
          ask_.where);
    }
    if (is_schedule_alias(ask_.spec)) {
      return alias();
    }
    // setup-node's isExplicitVersion and validRange: semver.valid(semver.clean(spec)).
    if (auto version = semver::clean_version(ask_.spec, {})) {
      return exact(*version);
    }
    return range("setup-node", !ask_.check_latest);
  }

  util::Result<ReleasePick> bun() const {
    if (ask_.spec.empty() || ask_.spec == "latest") {
      return latest();
    }
    if (ask_.spec == "canary") {
      return not_in_catalogue(named() + " asks for a canary build, which the runtime catalogue (" +
                              catalogue_.source + ") does not hold: it lists releases only");
    }
    if (auto version = semver::clean_version(ask_.spec, {})) {
      return exact(*version);
    }
    return range("setup-bun", false);  // the runner caches no bun
  }

 private:
  util::Result<ReleasePick> exact(const std::string& version) const {
    for (const auto& release : releases_) {
      if (release.version == version && released_by(release, ask_.today)) {
        return pick(&release, "exact", "an exact version, released " + release.date);
      }
    }
    const std::uint64_t major = semver::parse_version(version)->major;  // clean_version read it
    return not_in_catalogue(named() + " is not in the runtime catalogue (" + catalogue_.source +
                            ") on " + ask_.today + "; " + newest_held(major));
  }

  util::Result<ReleasePick> range(std::string_view action, bool ask_tool_cache) const {
    auto parsed = semver::Range::parse(ask_.spec);
    if (!parsed) {
      return invalid_declaration(named() + " is neither a version nor a range " +
                                     std::string(action) + " reads (" + parsed.error().message +
                                     ")",
                                 ask_.where);
    }
    if (auto cached = ask_tool_cache ? tool_cache_find(*parsed) : std::nullopt) {
      const std::string major = std::to_string(cached->line);
      return pick(cached->release, "tool-cache-line",
                  "setup-node's tc.find takes the highest build in the runner's tool cache that "
                  "satisfies it, here line " +
                      major + "'s; the runner's exact cached build is not known, so the " +
                      "catalogue's newest " + major + " release on " + ask_.today +
                      " stands for it");
    }
    const auto* release = newest([&](const semver::Version& v) { return parsed->test(v); });
    if (release == nullptr) {
      return not_in_catalogue("no " + ask_.tool + " release the runtime catalogue (" +
                              catalogue_.source + ") holds on " + ask_.today + " satisfies " +
                              util::quote(ask_.spec) + "; " + newest_held(std::nullopt));
    }
    return pick(release, "newest-match",
                "the catalogue's newest release satisfying it on " + ask_.today + range_note());
  }

  util::Result<ReleasePick> alias() const {
    auto line = resolve_node_alias(ask_.spec, catalogue_.node_schedule, ask_.today);
    if (!line) {
      util::Refusals out = line.refusals();
      for (auto& refusal : out) {
        refusal.location = ask_.where;
      }
      return out;
    }
    const std::string major = std::to_string(line->major);
    const auto* release = newest_of_line(static_cast<std::uint64_t>(line->major));
    if (release == nullptr) {
      return not_in_catalogue(named() + " names line " + major + " (" + line->why +
                              "), of which the runtime catalogue (" + catalogue_.source +
                              ") holds no release on " + ask_.today);
    }
    std::string reason =
        line->why + "; the catalogue's newest " + major + " release on " + ask_.today;
    if (alias_finds_cached_line(line->major)) {
      reason += "; setup-node finds line " + major +
                " in the runner's tool cache, whose exact build is not known here, so that "
                "release stands for it";
    }
    return pick(release, "alias", reason);
  }

  util::Result<ReleasePick> latest() const {
    const auto* release = newest([](const semver::Version&) { return true; });
    if (release == nullptr) {
      return not_in_catalogue(named() + ": the runtime catalogue (" + catalogue_.source +
                              ") holds no bun release on " + ask_.today);
    }
    return pick(release, "latest", "the catalogue's newest bun release on " + ask_.today);
  }

  // The newest release of `releases` existing on `today` whose version `wanted` accepts: they
  // ascend, so the first found walking back.
  template <class Wanted>
  const CatalogueRelease* newest(Wanted wanted, Span releases) const {
    for (auto it = releases.rbegin(); it != releases.rend(); ++it) {
      if (auto version = existing(*it, ask_.today); version && wanted(*version)) {
        return &*it;
      }
    }
    return nullptr;
  }
  template <class Wanted>
  const CatalogueRelease* newest(Wanted wanted) const {
    return newest(wanted, releases_);
  }

  // The releases of line `major`, found by bisection (the versions ascend, so a line's releases
  // are contiguous): a range or alias parses only the line it looks at, not the whole catalogue.
  Span line(std::uint64_t major) const {
    const auto major_of = [](const CatalogueRelease& release) {
      auto version = semver::parse_version(release.version);
      return version ? version->major : 0;
    };
    const auto first = std::partition_point(releases_.begin(), releases_.end(),
                                            [&](const auto& r) { return major_of(r) < major; });
    const auto last = std::partition_point(first, releases_.end(),
                                           [&](const auto& r) { return major_of(r) == major; });
    return {first, last};
  }

  const CatalogueRelease* newest_of_line(std::uint64_t major) const {
    return newest([](const semver::Version&) { return true; }, line(major));
  }

  struct CachedBuild {
    const CatalogueRelease* release;
    int line;
  };

  // setup-node's tc.find for a range: the highest cached build that satisfies it (semver
  // satisfies, so no prerelease), if any. The runner caches one build of each of
  // `tool_cache_lines`; which one is not known here, so each line's newest release on `today`
  // stands for it. Lines are distinct majors, so the highest build is that of the highest line.
  std::optional<CachedBuild> tool_cache_find(const semver::Range& range) const {
    std::optional<CachedBuild> best;
    for (int line : ask_.tool_cache_lines) {
      if (line < 0 || (best && line <= best->line)) {
        continue;
      }
      const auto* cached = newest_of_line(static_cast<std::uint64_t>(line));
      if (cached == nullptr) {
        continue;
      }
      // newest_of_line only returns a release that existing() accepts.
      if (range.test(*existing(*cached, ask_.today))) {
        best = CachedBuild{cached, line};
      }
    }
    return best;
  }

  // setup-node turns an lts alias into its major and looks that up in the tool cache; node,
  // latest and current become the dist index's newest exact version, which the cache rarely has.
  bool alias_finds_cached_line(int major) const {
    const auto& lines = ask_.tool_cache_lines;
    return ask_.spec.starts_with("lts/") && !ask_.check_latest &&
           std::find(lines.begin(), lines.end(), major) != lines.end();
  }

  std::string range_note() const {
    if (ask_.tool != "node") {
      return "";
    }
    return ask_.check_latest ? " (check-latest: setup-node skips the tool cache)"
                             : " (no build the runner's tool cache holds satisfies it)";
  }

  // "the newest node 24 release it holds by then is 24.17.0", of one line or of all.
  std::string newest_held(std::optional<std::uint64_t> major) const {
    const std::string what = ask_.tool + (major ? " " + std::to_string(*major) : std::string());
    const auto* release =
        major ? newest_of_line(*major) : newest([](const semver::Version&) { return true; });
    if (release == nullptr) {
      return "it holds no " + what + " release by then";
    }
    return "the newest " + what + " release it holds by then is " + release->version;
  }

  std::string named() const {
    if (ask_.spec.empty()) {
      return ask_.tool + " with no version";
    }
    return ask_.tool + " " + util::quote(ask_.spec);
  }

  ReleasePick pick(const CatalogueRelease* release, std::string rule, std::string reason) const {
    return ReleasePick{release, std::move(rule),
                       named() + " taken as " + release->version + ": " + reason};
  }

  util::Refusal not_in_catalogue(std::string message) const {
    return util::refusal("runtime-not-in-catalogue", std::move(message), ask_.where);
  }

  const ReleaseAsk& ask_;
  const RuntimeCatalogue& catalogue_;
  const Releases& releases_;
};

}  // namespace

util::Result<ReleasePick> pick_release(const ReleaseAsk& ask, const RuntimeCatalogue& catalogue) {
  if (ask.tool != "node" && ask.tool != "bun") {
    return invalid_declaration(
        "a setup step installs node or bun here, not " + util::quote(ask.tool), ask.where);
  }
  if (ask.today.size() != 10) {
    return invalid_declaration(ask.tool + " " + util::quote(ask.spec) +
                                   " cannot be resolved: the review has no date (YYYY-MM-DD)",
                               ask.where);
  }
  if (ask.tool == "bun") {
    return Picker(ask, catalogue, catalogue.bun).bun();
  }
  return Picker(ask, catalogue, catalogue.node).node();
}

}  // namespace reviewer::resolve

#include "core/deps/catalogue/catalogue_update.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <set>

#include "core/deps/integrity.h"
#include "core/exec/host_process.h"
#include "core/semver/version.h"
#include "core/util/check.h"
#include "core/util/sha256.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;
using resolve::CatalogueRelease;
using resolve::CatalogueTool;
using Release = CatalogueRegistry::Release;

util::Refusal update_error(std::string rule, std::string message) {
  return util::refusal(util::RefusalKind::kHost, std::move(rule), std::move(message));
}

const CatalogueTool& tool_named(std::string_view name) {
  const CatalogueTool* t = resolve::find_catalogue_tool(name);
  REVIEWER_CHECK(t != nullptr);  // every caller names a catalogue tool
  return *t;
}

std::optional<semver::Version> stable(std::string_view v) {
  auto parsed = semver::parse_version(v);
  if (!parsed || !parsed->prerelease.empty() || !parsed->build.empty() ||
      parsed->to_string() != v) {
    return std::nullopt;
  }
  return *parsed;
}

// The registry's releases that the catalogue takes: stable ones from `first_major`.0.0, ascending.
std::vector<Release> catalogue_releases(std::vector<Release> all, std::uint64_t first_major) {
  std::erase_if(all, [&](const Release& r) {
    auto v = stable(r.version);
    return !v || v->major < first_major;
  });
  std::sort(all.begin(), all.end(), [](const Release& a, const Release& b) {
    return *stable(a.version) < *stable(b.version);
  });
  return all;
}

exec::CommandOptions quiet() {
  exec::CommandOptions options;
  options.quiet_stderr = true;
  return options;
}

class Updater {
 public:
  Updater(CatalogueRegistry& registry, const CatalogueUpdate& options)
      : registry_(registry), options_(options) {}

  // `r` of `tool` as the catalogue records it: the tarball held to the registry's integrity and
  // its runtime file (one of `members`, the first the tarball has) hashed.
  util::Result<CatalogueRelease> fetch(const CatalogueTool& tool, const Release& r,
                                       const std::vector<std::string>& members) {
    const std::string tgz =
        options_.work_dir + "/" + std::string(tool.name) + "-" + r.version + ".tgz";
    if (auto e = ensure_tarball(tool, r, tgz); !e) {
      return e.refusals();
    }
    auto member = pick_member(tgz, members);
    if (!member) {
      return member.refusals();
    }
    auto sha256 = member_sha256(tgz, *member);
    if (!sha256) {
      return sha256.refusals();
    }
    CatalogueRelease out;
    out.version = r.version;
    out.integrity = r.integrity;
    out.file = *member;
    out.sha256 = *sha256;
    return out;
  }

 private:
  // The tarball in the work folder, downloaded unless a verified one is there from an earlier
  // run, and held to the registry's integrity either way.
  util::Status ensure_tarball(const CatalogueTool& tool, const Release& r, const std::string& tgz) {
    auto want = sha512_of_integrity(r.integrity, std::string(tool.package) + "@" + r.version);
    if (!want) {
      return want.refusals();
    }
    if (auto have = sha512_file(tgz); have && *have == *want) {
      options_.progress(std::string(tool.name) + " " + r.version + ": verified the tarball kept");
      return util::ok_status();
    }
    if (downloads_ >= options_.max_downloads) {
      return update_error("catalogue-update-bound",
                          "this run downloaded its bound of " +
                              std::to_string(options_.max_downloads) +
                              " tarballs; run it again to go on (what it downloaded is kept in " +
                              options_.work_dir + ")");
    }
    ++downloads_;
    const auto start = std::chrono::steady_clock::now();
    const std::string part = tgz + ".part";
    if (auto e = registry_.download(r.tarball, part, options_.max_bytes_each); !e) {
      return e;
    }
    auto got = sha512_file(part);
    std::error_code ec;
    if (!got || *got != *want) {
      fs::remove(part, ec);
      return update_error("dependency-integrity-mismatch",
                          r.tarball + " does not match the registry's integrity " + r.integrity);
    }
    fs::rename(part, tgz, ec);
    if (ec) {
      return update_error("invalid-catalogue", "cannot keep " + tgz + ": " + ec.message());
    }
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    options_.progress(std::string(tool.name) + " " + r.version + ": downloaded " +
                      std::to_string(fs::file_size(tgz, ec) >> 20) + " MiB in " +
                      std::to_string(ms) + " ms");
    return util::ok_status();
  }

  util::Result<std::string> pick_member(const std::string& tgz,
                                        const std::vector<std::string>& members) {
    if (members.size() == 1) {
      return members[0];
    }
    auto listing = exec::command_output({"tar", "-tzf", tgz}, 16u << 20);
    if (!listing) {
      return listing.refusals();
    }
    for (const auto& m : members) {
      if (listing->find("package/" + m + "\n") != std::string::npos) {
        return m;
      }
    }
    return update_error("invalid-catalogue", tgz + " has none of the expected runtime files");
  }

  // The SHA-256 of `member`, unpacked alone into a fresh folder and held to be a regular file
  // (a link in the tarball is never followed).
  util::Result<std::string> member_sha256(const std::string& tgz, const std::string& member) {
    const std::string scratch = options_.work_dir + "/unpack";
    std::error_code ec;
    fs::remove_all(scratch, ec);
    fs::create_directory(scratch, ec);
    auto ran = exec::run_command({"tar", "-xzf", tgz, "-C", scratch, "--no-same-owner",
                                  "--no-same-permissions", "package/" + member},
                                 quiet());
    if (!ran) {
      return ran.refusals();
    }
    const std::string file = scratch + "/package/" + member;
    struct stat st {};
    if (ran->status != 0 || ::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      return update_error("invalid-catalogue",
                          tgz + ": package/" + member + " is not a regular file in the tarball");
    }
    auto sha = util::sha256_file(file);
    fs::remove_all(scratch, ec);
    return sha;
  }

  CatalogueRegistry& registry_;
  const CatalogueUpdate& options_;
  std::size_t downloads_ = 0;
};

// The releases of `tool` new since `old`: each recorded one kept (the registry must still give it
// the recorded integrity), each new one fetched. `members` as Updater::fetch takes them.
util::Result<std::vector<CatalogueRelease>> update_tool(const resolve::RuntimeCatalogue& old,
                                                        const CatalogueTool& tool,
                                                        const std::vector<Release>& releases,
                                                        const std::vector<std::string>& members,
                                                        Updater& updater,
                                                        const CatalogueUpdate& options) {
  std::vector<CatalogueRelease> out;
  std::size_t n = 0;
  for (const auto& r : releases) {
    ++n;
    const CatalogueRelease* held = old.find(tool.name, r.version);
    if (held != nullptr && held->integrity != r.integrity) {
      return update_error("catalogue-integrity-changed",
                          std::string(tool.package) + "@" + r.version +
                              ": the catalogue recorded " + held->integrity +
                              ", the registry now gives " + r.integrity +
                              "; the recorded entry stays until a person has looked");
    }
    if (held != nullptr) {
      out.push_back(*held);
      continue;
    }
    options.progress("[" + std::to_string(n) + "/" + std::to_string(releases.size()) + "] " +
                     std::string(tool.package) + "@" + r.version);
    auto fetched = updater.fetch(tool, r, members);
    if (!fetched) {
      return fetched.refusals();
    }
    fetched->date = r.published;
    fetched->dated_by_registry = true;
    out.push_back(std::move(*fetched));
  }
  return out;
}

// The dates and bundles the release posts give (only where a post says; what the catalogue
// recorded otherwise stays).
void apply_notes(std::vector<CatalogueRelease>& node, const CatalogueUpdate& options) {
  std::vector<std::string> versions;
  for (const auto& r : node) {
    versions.push_back(r.version);
  }
  const auto bundles = node_bundles(options.notes, versions);
  for (auto& r : node) {
    if (auto note = options.notes.find(r.version);
        note != options.notes.end() && !note->second.date.empty()) {
      r.date = note->second.date;
      r.dated_by_registry = false;
    }
    if (auto b = bundles.find(r.version); b != bundles.end()) {
      r.npm = b->second.npm.empty() ? r.npm : b->second.npm;
      r.corepack = b->second.corepack.empty() ? r.corepack : b->second.corepack;
    }
  }
}

// The npm or corepack releases the node releases bundle, each from the registry's list of them;
// a bundle the registry does not have is left unrecorded on the node release, and said.
util::Result<std::vector<CatalogueRelease>> update_bundled(
    const resolve::RuntimeCatalogue& old, std::vector<CatalogueRelease>& node,
    std::string_view name, const std::vector<std::string>& members, CatalogueRegistry& registry,
    Updater& updater, const CatalogueUpdate& options) {
  const CatalogueTool& tool = tool_named(name);
  auto listed = registry.releases(std::string(tool.package));
  if (!listed) {
    return listed.refusals();
  }
  std::set<std::string> wanted;
  for (auto& r : node) {
    std::string& bundled = name == "npm" ? r.npm : r.corepack;
    if (bundled.empty() || bundled == resolve::kNotBundled) {
      continue;
    }
    const bool published = std::any_of(listed->begin(), listed->end(),
                                       [&](const Release& l) { return l.version == bundled; });
    if (!published) {
      options.progress("node " + r.version + " bundles " + std::string(name) + " " + bundled +
                       ", which the registry does not have: left unrecorded");
      bundled.clear();
      continue;
    }
    wanted.insert(bundled);
  }
  std::vector<Release> releases;
  for (const auto& l : catalogue_releases(*listed, 0)) {
    if (wanted.contains(l.version)) {
      releases.push_back(l);
    }
  }
  return update_tool(old, tool, releases, members, updater, options);
}

}  // namespace

util::Result<resolve::RuntimeCatalogue> update_runtime_catalogue(
    const resolve::RuntimeCatalogue& old, CatalogueRegistry& registry,
    const CatalogueUpdate& options) {
  Updater updater(registry, options);
  resolve::RuntimeCatalogue out;
  out.source = old.source;
  out.node_schedule = old.node_schedule;
  for (const auto& [name, first_major] : {std::pair{"node", 18ull}, std::pair{"bun", 1ull}}) {
    const CatalogueTool& tool = tool_named(name);
    auto listed = registry.releases(std::string(tool.package));
    if (!listed) {
      return listed.refusals();
    }
    auto releases = update_tool(old, tool, catalogue_releases(*listed, first_major),
                                {std::string(tool.file)}, updater, options);
    if (!releases) {
      return releases.refusals();
    }
    (std::string_view(name) == "node" ? out.node : out.bun) = std::move(*releases);
  }
  apply_notes(out.node, options);
  auto npm = update_bundled(old, out.node, "npm", {"bin/npm-cli.js"}, registry, updater, options);
  if (!npm) {
    return npm.refusals();
  }
  out.npm = std::move(*npm);
  auto corepack =
      update_bundled(old, out.node, "corepack", {"dist/lib/corepack.cjs", "dist/corepack.js"},
                     registry, updater, options);
  if (!corepack) {
    return corepack.refusals();
  }
  out.corepack = std::move(*corepack);
  return out;
}

}  // namespace reviewer::deps

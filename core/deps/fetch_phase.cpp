#include "core/deps/fetch_phase.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "core/contract/view_layout.h"
#include "core/deps/dependencies.h"
#include "core/deps/document_client.h"
#include "core/deps/npm_resolution.h"
#include "core/report/render.h"
#include "core/semver/version.h"
#include "core/util/text.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

// The project's .npmrc settings the resolution honoured, for the log.
std::string npmrc_note(const std::vector<std::string>& settings) {
  std::string out;
  for (const auto& s : settings) {
    out += (out.empty() ? ", honouring the project's .npmrc " : ", ") + s;
  }
  return out;
}

util::Result<std::optional<Dependencies>> resolve_and_fetch(const FetchPhaseRequest& r,
                                                            ResolutionSandbox& engine) {
  auto nothing = [&](const char* why) {
    std::cout << "review: dependencies: " << why << ", nothing fetched";
    for (const auto& name : unread_lock_files(r.worktree)) {
      std::cout << " (" << name << " is not read yet)";
    }
    std::cout << std::endl;
    return std::optional<Dependencies>();
  };
  if (!lacks_lock_file(r.worktree)) {
    return nothing("no npm, pnpm, Bun or yarn lock file");
  }
  // npm asks for one document after another: connections kept open between them.
  auto downloader = make_document_client(r.options.meter);
  auto found = resolve_npm(r.worktree, engine, r.image, r.scratch + "/resolution", r.options,
                           *downloader, r.limits);
  if (!found) {
    return found.refusals();
  }
  if (!*found) {
    return nothing("no lock file, and package.json declares no dependency");
  }
  NpmResolution& resolved = **found;
  std::string kept = "; pass --reports DIR to keep the lock npm wrote";
  if (!r.reports_dir.empty()) {
    std::error_code ec;
    const std::string copy = r.reports_dir + "/resolved-package-lock.json";
    fs::copy_file(resolved.lock_file, copy, fs::copy_options::overwrite_existing, ec);
    kept = "; the lock npm wrote" + std::string(ec ? " could not be copied to " : " is ") + copy;
  }
  std::cout << "review: dependencies: no lock file; the image's npm resolved package.json to "
            << resolved.list.tarballs.size() << " tarballs, reading the registry metadata of "
            << resolved.packuments.size() << " packages in "
            << resolved.elapsed.count() / 100 / 10.0 << " s" << npmrc_note(resolved.npmrc) << kept
            << std::endl;
  auto deps = fetch_resolved(std::move(resolved.list), std::move(resolved.packuments), r.store_dir,
                             r.options);
  if (!deps) {
    return deps.refusals();
  }
  return std::optional<Dependencies>(std::move(*deps));
}

// Whether a job installs with pnpm 11 or later, which asks the registry for each locked
// package's metadata before installing (measured with 11.28.11: a 404 fails the install).
bool reads_registry_metadata(const std::vector<deps::FetchedPackageManager>& managers) {
  return std::any_of(managers.begin(), managers.end(), [](const auto& m) {
    auto v = semver::parse_version(m.version);
    return m.name == "pnpm" && v && v->major >= 11;
  });
}

// Adds `more`'s tarballs and metadata to `deps`, each once.
void merge(Dependencies& deps, Dependencies&& more) {
  for (auto& t : more.list.tarballs) {
    const bool have = std::any_of(deps.list.tarballs.begin(), deps.list.tarballs.end(),
                                  [&](const deps::Pinned& p) { return p.sha512 == t.sha512; });
    if (!have) {
      deps.list.tarballs.push_back(std::move(t));
    }
  }
  for (auto& p : more.packuments) {
    const bool have = std::any_of(deps.packuments.begin(), deps.packuments.end(),
                                  [&](const deps::Packument& q) { return q.key == p.key; });
    if (!have) {
      deps.packuments.push_back(std::move(p));
    }
  }
}

// Each global install of the plan, resolved now and fetched into `deps`. One that cannot be
// resolved or fetched is reported and left out: the step's `npm install -g` then fails offline,
// where CI would have downloaded it; a host failure (the registry, the store) is returned.
util::Status fetch_global_installs(const FetchPhaseRequest& r, ResolutionSandbox& engine,
                                   std::optional<Dependencies>& deps) {
  std::size_t n = 0;
  for (const auto& g : r.global_installs) {
    const std::string what = "npm install -g " + g.name + (g.spec == "*" ? "" : "@" + g.spec);
    auto downloader = make_document_client(r.options.meter);
    auto resolved = resolve_global_install(g.name, g.spec, engine, r.image,
                                           r.scratch + "/global-" + std::to_string(n++), r.options,
                                           *downloader, r.limits);
    util::Result<Dependencies> fetched =
        resolved ? fetch_resolved(std::move(resolved->list), std::move(resolved->packuments),
                                  r.store_dir, r.options)
                 : util::Result<Dependencies>(resolved.refusals());
    if (!fetched && is_host_side(fetched.error())) {
      return fetched.refusals();
    }
    if (!fetched) {
      std::cout << "review: global install: " << what
                << " not provided: " << fetched.error().to_string()
                << "; the step's install fails offline" << std::endl;
      continue;
    }
    std::cout << "review: global install: " << deps::describe(fetched->list, fetched->report)
              << std::endl;
    if (!deps) {
      deps = Dependencies{};
    }
    merge(*deps, std::move(*fetched));
  }
  return util::ok_status();
}

}  // namespace

std::vector<deps::PackageManagerPin> package_manager_pins(const plan::Plan& plan,
                                                          const resolve::Resolution& resolution) {
  // packageManager as written ("pnpm@10.33.0+sha512.<hex>"), for pnpm and yarn: the package
  // managers corepack installs (yarn 2 and later from the registry's @yarnpkg/cli-dist, as
  // corepack does with COREPACK_NPM_REGISTRY).
  std::string declared;
  std::string corepack_name;
  for (const auto& d : resolution.declarations) {
    if (d.source != "package.json packageManager") {
      continue;
    }
    if (d.tool == "pnpm" || d.tool == "yarn") {
      declared = d.tool + "@" + d.value;
      corepack_name = d.tool;
    }
  }
  const std::string named = declared.substr(0, declared.find('+'));
  std::vector<deps::PackageManagerPin> out;
  for (const auto& p : plan.pins) {
    if (p.runtime != "pnpm") {
      continue;
    }
    const bool seen = std::any_of(out.begin(), out.end(),
                                  [&](const auto& pin) { return pin.version == p.version; });
    if (seen) {
      continue;
    }
    const bool same = named == "pnpm@" + p.version;
    out.push_back({"pnpm", p.version, same ? declared : "",
                   "the pnpm pinned at " + p.location.to_string(), same});
  }
  const bool pinned =
      std::any_of(out.begin(), out.end(), [](const auto& pin) { return pin.corepack; });
  if (!corepack_name.empty() && !pinned) {
    // Any step may run corepack (a package.json script as well as a workflow's line), so the
    // declaration, not a step's text, decides; corepack finds the release in its cache.
    out.push_back({corepack_name, named.substr(corepack_name.size() + 1), declared,
                   "corepack (package.json packageManager)", true, true});
  }
  return out;
}

namespace {

// "./website/" -> "website"; "" for the top, or for what no plain relative path names.
std::string plain_dir(std::string_view wd) {
  while (wd.starts_with("./")) {
    wd.remove_prefix(2);
  }
  while (wd.ends_with("/")) {
    wd.remove_suffix(1);
  }
  if (wd.empty() || wd == "." || wd.starts_with("/") || wd.find("${{") != wd.npos) {
    return "";
  }
  for (const auto& part : util::split_path(std::string(wd))) {
    if (part.empty() || part == "." || part == "..") {
      return "";
    }
  }
  return std::string(wd);
}

void add_dirs(const std::vector<plan::PlannedStep>& steps, std::vector<std::string>& out) {
  for (const auto& s : steps) {
    if (s.local) {
      add_dirs(s.local->steps, out);
    }
    if (!s.step.is_run() || !s.step.working_directory) {
      continue;
    }
    const std::string dir = plain_dir(*s.step.working_directory);
    if (!dir.empty() && std::find(out.begin(), out.end(), dir) == out.end()) {
      out.push_back(dir);
    }
  }
}

}  // namespace

std::vector<std::string> project_dirs(const plan::Plan& plan) {
  std::vector<std::string> out;
  for (const plan::PlannedJob* job : plan::jobs_with_steps(plan.jobs)) {
    add_dirs(job->steps, out);
  }
  return out;
}

util::Result<std::string> fetch_phase(const FetchPhaseRequest& request, ResolutionSandbox& engine) {
  // One meter for the review: its lock's tarballs, its global installs, its package managers and
  // their metadata all count against one --max-dependency-bytes, whatever phase fetches them.
  FetchPhaseRequest r = request;
  if (!r.options.meter) {
    r.options.meter = std::make_shared<deps::DownloadMeter>(r.options.max_total_bytes);
  }
  // A package.json at the top without a lock is resolved at review time (resolve_and_fetch), as
  // before project directories were read: theirs would otherwise stand in for the top's.
  const std::vector<std::string> dirs =
      lacks_lock_file(r.worktree) ? std::vector<std::string>() : r.project_dirs;
  auto deps = fetch_dependencies(r.worktree, r.store_dir, r.options, dirs);
  if (deps && !*deps) {
    deps = resolve_and_fetch(r, engine);
  }
  if (!deps) {
    return deps.refusals();
  }
  if (*deps) {
    std::cout << "review: dependencies: " << deps::describe((*deps)->list, (*deps)->report)
              << std::endl;
  }
  if (auto globals = fetch_global_installs(r, engine, *deps); !globals) {
    return globals.refusals();
  }
  std::vector<deps::PackageManagerPin> managers = r.package_managers;
  if (*deps && (*deps)->list.yarn) {
    // The runner has yarn 1 on PATH for every step; the job gets the same release from the view.
    managers.push_back({"yarn", contract::kRunnerYarnVersion, "",
                        "the runner's preinstalled yarn (the worktree has yarn.lock)"});
  }
  if (!managers.empty()) {
    if (!*deps) {
      *deps = Dependencies{};
    }
    if (auto fetched = fetch_package_managers(managers, r.store_dir, r.options, **deps); !fetched) {
      return fetched.refusals();
    }
  }
  if (*deps && reads_registry_metadata((*deps)->package_managers)) {
    if (auto fetched = fetch_registry_metadata(r.store_dir, r.options, **deps); !fetched) {
      return fetched.refusals();
    }
  }
  if (!*deps) {
    return std::string();
  }
  const std::string view = r.scratch + "/deps";
  if (auto made = make_dependency_view(r.store_dir, **deps, view); !made) {
    return made.refusals();
  }
  return view;
}

}  // namespace reviewer::deps

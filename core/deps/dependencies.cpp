#include "core/deps/dependencies.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>

#include "core/contract/view_layout.h"
#include "core/deps/curl_downloader.h"
#include "core/deps/registry_integrity.h"

namespace reviewer::deps {
namespace {

// The host's curl, counting against the review's meter; a caller that is no review (`reviewer
// fetch`) gets one for this call's downloads alone, with the same bound.
std::unique_ptr<deps::Downloader> downloader_for(const deps::FetchOptions& options) {
  return make_curl_downloader(options.meter
                                  ? options.meter
                                  : std::make_shared<deps::DownloadMeter>(options.max_total_bytes));
}

}  // namespace

std::string default_store_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && *xdg == '/') {
    return std::string(xdg) + "/reviewer/deps";
  }
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr && *home == '/' ? home : "/tmp") + "/.cache/reviewer/deps";
}

util::Result<std::optional<Dependencies>> fetch_dependencies(
    const std::string& worktree, const std::string& store_dir, const deps::FetchOptions& options,
    const std::vector<std::string>& project_dirs) {
  auto list = deps::plan_fetch(worktree, options, project_dirs);
  if (!list) {
    return list.refusals();
  }
  if (!*list) {
    return std::optional<Dependencies>();
  }
  auto store = deps::Store::open(store_dir);
  if (!store) {
    return store.refusals();
  }
  auto downloader = downloader_for(options);
  if (!(*list)->unpinned.empty()) {
    auto pinned = deps::pin_registry_integrity(**list, *store, *downloader, options);
    if (!pinned) {
      return pinned.refusals();
    }
    std::cout << "review: dependencies: " << deps::describe(*pinned) << std::endl;
  }
  auto report = deps::fetch_into_store(**list, *store, *downloader, options);
  if (!report) {
    return report.refusals();
  }
  return std::optional<Dependencies>(Dependencies{std::move(**list), *report, {}, {}});
}

util::Result<Dependencies> fetch_resolved(deps::FetchList list,
                                          std::vector<deps::Packument> packuments,
                                          const std::string& store_dir,
                                          const deps::FetchOptions& options) {
  auto store = deps::Store::open(store_dir);
  if (!store) {
    return store.refusals();
  }
  auto downloader = downloader_for(options);
  auto report = deps::fetch_into_store(list, *store, *downloader, options);
  if (!report) {
    return report.refusals();
  }
  if (auto stored = deps::store_packuments(packuments, *store); !stored) {
    return stored.refusals();
  }
  return Dependencies{std::move(list), *report, std::move(packuments), {}};
}

util::Status fetch_package_managers(const std::vector<deps::PackageManagerPin>& pins,
                                    const std::string& store_dir, const deps::FetchOptions& options,
                                    Dependencies& deps) {
  auto store = deps::Store::open(store_dir);
  if (!store) {
    return store.refusals();
  }
  auto downloader = downloader_for(options);
  util::Refusals refusals;
  for (const auto& pin : pins) {
    const auto start = std::chrono::steady_clock::now();
    auto got = deps::fetch_package_manager(pin, *store, *downloader, options);
    if (!got && pin.corepack_only && !is_host_side(got.error())) {
      std::cout << "review: package manager: " << pin.name << " " << pin.version << " for "
                << pin.what << " not provided: " << got.error().to_string()
                << "; a step that runs it through corepack fails offline" << std::endl;
      continue;
    }
    if (!got) {
      util::append_refusals(refusals, got);
      continue;
    }
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    const std::string taken =
        got->version == pin.version
            ? std::string()
            : " taken as " + got->version +
                  " (the release pnpm picks for that range from the registry's metadata now; "
                  "CI picks at its own time)";
    std::cout << "review: package manager: " << pin.name << " " << pin.version << taken << " for "
              << pin.what << ": " << (got->hit ? "1 hit, 0 misses" : "0 hits, 1 miss") << ", "
              << got->bytes << " bytes, verified against the registry's integrity"
              << (pin.declared.find('+') == std::string::npos ? ""
                  : deps::single_file_release(pin)
                      ? " (package.json's hash is held to its yarn.js in the sandbox)"
                      : " and package.json's hash")
              << ", in " << ms / 1000 << "." << (ms % 1000) / 10 << " s" << std::endl;
    deps.package_managers.push_back(std::move(*got));
  }
  return util::status_of(std::move(refusals));
}

util::Status fetch_registry_metadata(const std::string& store_dir,
                                     const deps::FetchOptions& options, Dependencies& deps) {
  const auto& packages = deps.list.pnpm_packages;
  if (packages.empty()) {
    return util::ok_status();
  }
  auto store = deps::Store::open(store_dir);
  if (!store) {
    return store.refusals();
  }
  auto downloader = downloader_for(options);
  auto got = deps::fetch_registry_documents(packages, *store, *downloader, options);
  if (!got) {
    return got.refusals();
  }
  std::cout << "review: dependencies: " << deps::describe(*got) << std::endl;
  deps.documents = std::move(got->documents);
  return util::ok_status();
}

util::Status make_dependency_view(const std::string& store_dir, const Dependencies& deps,
                                  const std::string& dir) {
  auto store = deps::Store::open(store_dir);
  if (!store) {
    return store.refusals();
  }
  std::vector<std::string> hexes;
  std::string bun_list;
  for (const auto& t : deps.list.tarballs) {
    hexes.push_back(t.sha512);
    if (!t.bun_dir.empty()) {
      bun_list += t.bun_dir + "\t" + deps::Store::relative_path(t.sha512) + "\n";
    }
  }
  for (const auto& p : deps.packuments) {
    hexes.push_back(p.sha512);
  }
  for (const auto& m : deps.package_managers) {
    hexes.push_back(m.sha512);
  }
  if (auto made = store->make_view(hexes, dir); !made) {
    return made;
  }
  if (auto indexed = deps::write_packument_index(dir, deps.packuments); !indexed) {
    return indexed;
  }
  for (const auto& t : deps.list.tarballs) {
    if (t.registry_path.empty()) {
      continue;
    }
    if (auto placed = store->link_as(t.sha512, dir,
                                     std::string(contract::kRegistryDir) + "/" + t.registry_path);
        !placed) {
      return placed;
    }
  }
  for (const auto& d : deps.documents) {
    const std::string at =
        std::string(contract::kRegistryDir) + "/" + d.name + "/" + contract::kPackumentFile;
    if (auto placed = store->link_as(d.sha512, dir, at); !placed) {
      return placed;
    }
  }
  for (const auto& t : deps.list.tarballs) {
    if (t.yarn_mirror.empty()) {
      continue;
    }
    if (auto placed = store->link_as(t.sha512, dir,
                                     std::string(contract::kYarnMirrorDir) + "/" + t.yarn_mirror);
        !placed) {
      return placed;
    }
  }
  std::set<std::string> placed_paths;  // the runner's yarn may also be packageManager's
  std::string corepack_list;
  // What each range the plan pinned was taken as, for the step that installs it: one line
  // "NAME<TAB>SPEC<TAB>VERSION" each (the view's reader is the plugin's shell script).
  std::string ranges;
  for (const auto& m : deps.package_managers) {
    if (m.spec != m.version && !m.spec.empty()) {
      ranges += m.name + "\t" + m.spec + "\t" + m.version + "\n";
    }
    if (placed_paths.insert(m.view_path).second) {
      if (auto placed = store->link_as(m.sha512, dir, m.view_path); !placed) {
        return placed;
      }
    }
    if (!m.corepack_hash.empty()) {
      corepack_list += m.name + "\t" + m.version + "\t" + m.corepack_reference + "\t" +
                       m.view_path + "\t" + m.corepack_hash + "\n";
    }
  }
  const std::string ranges_file = std::string(contract::kPackageManagerDir) + "/ranges";
  for (const auto& [name, text] :
       {std::pair{ranges_file.c_str(), &ranges}, std::pair{contract::kBunList, &bun_list},
        std::pair{contract::kCorepackList, &corepack_list}}) {
    if (text->empty()) {
      continue;
    }
    const std::string file = dir + "/" + name;
    std::ofstream out(file, std::ios::binary);
    out << *text;
    if (!out.flush()) {
      return util::refusal(util::RefusalKind::kHost, "dependency-store", "cannot write " + file);
    }
    ::chmod(file.c_str(), 0644);
  }
  return util::ok_status();
}

bool valid_registry(const std::string& r) {
  return r.rfind("https://", 0) == 0 && r.size() > 9 && r.back() == '/' &&
         r.find_first_of(" \t\n\"'?#") == std::string::npos && r[8] != '/';
}

std::vector<std::string> unread_lock_files(const std::string& worktree) {
  std::vector<std::string> out;
  for (const char* name : {"bun.lockb"}) {
    struct stat st {};
    if (::lstat((worktree + "/" + name).c_str(), &st) == 0) {
      out.emplace_back(name);
    }
  }
  return out;
}

bool is_host_side(const util::Refusal& r) { return r.kind == util::RefusalKind::kHost; }

}  // namespace reviewer::deps

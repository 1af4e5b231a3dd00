// pin_registry_integrity: the registry's version documents of a lock's unpinned packages, each
// read for its tarball's sha512, recorded so a later review asks nothing.
#include "core/deps/registry_integrity.h"

#include <cstdio>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "core/deps/download_dir_guard.h"
#include "core/deps/integrity.h"
#include "core/deps/package_source.h"
#include "core/deps/store_index.h"

namespace reviewer::deps {
namespace {

// A version document holds one version's manifest: a few KiB, far below this.
constexpr std::uint64_t kMaxVersionDocumentBytes = 1 << 20;

constexpr const char* kIndexKind = "registry-integrity";

std::string index_key(const UnpinnedPackage& u) {
  return registry_url_name(u.name) + "@" + u.version;
}

}  // namespace

std::string read_version_document(std::string_view text, const std::string& name,
                                  const std::string& version, const std::string& tarball_url,
                                  std::string& sha512) {
  nlohmann::json doc;
  try {  // nlohmann reports malformed JSON only through its exception
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    return "is not JSON";
  }
  auto text_at = [&](const char* pointer) -> std::string {
    const nlohmann::json::json_pointer p(pointer);
    return doc.is_object() && doc.contains(p) && doc.at(p).is_string()
               ? doc.at(p).get<std::string>()
               : "";
  };
  if (!doc.is_object() || text_at("/name") != name || text_at("/version") != version) {
    return "names another package or version";
  }
  if (text_at("/dist/tarball") != tarball_url) {
    return "names the tarball \"" + text_at("/dist/tarball") + "\", not the registry's own " +
           tarball_url;
  }
  auto hex = sha512_of_integrity(text_at("/dist/integrity"), name + "@" + version);
  if (!hex) {
    return "has no sha512 dist.integrity";
  }
  sha512 = *hex;
  return "";
}

util::Result<IntegrityReport> pin_registry_integrity(FetchList& list, const Store& store,
                                                     Downloader& downloader,
                                                     const FetchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  IntegrityReport report;
  report.packages = list.unpinned.size();
  auto dir = store.make_temp_dir();
  if (!dir) {
    return dir.refusals();
  }
  DownloadDirGuard guard{*dir};
  std::vector<std::string> sha512s(list.unpinned.size());
  std::vector<Download> misses;
  std::vector<std::size_t> missed;
  for (std::size_t i = 0; i < list.unpinned.size(); ++i) {
    const auto& u = list.unpinned[i];
    const std::string index = store_index_path(store, kIndexKind, options.registry, index_key(u));
    if (auto known = read_store_index(index)) {
      sha512s[i] = *known;
      ++report.hits;
      continue;
    }
    misses.push_back({options.registry + registry_url_name(u.name) + "/" + u.version,
                      *dir + "/" + std::to_string(misses.size()) + ".json"});
    missed.push_back(i);
  }
  if (auto fetched = downloader.download(misses, kMaxVersionDocumentBytes); !fetched) {
    return fetched.refusals();
  }
  for (std::size_t m = 0; m < misses.size(); ++m) {
    const auto& u = list.unpinned[missed[m]];
    std::ifstream in(misses[m].file, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    const std::string problem = read_version_document(
        text, u.name, u.version, registry_tarball_of(options.registry, u.name, u.version),
        sha512s[missed[m]]);
    if (!problem.empty()) {
      return util::refusal("dependency-metadata-invalid", "the registry's document for " + u.name +
                                                              "@" + u.version + " (" +
                                                              misses[m].url + ") " + problem);
    }
    const std::string index = store_index_path(store, kIndexKind, options.registry, index_key(u));
    if (auto recorded = write_store_index(index, sha512s[missed[m]]); !recorded) {
      return recorded.refusals();
    }
  }
  for (std::size_t i = 0; i < list.unpinned.size(); ++i) {
    const auto& u = list.unpinned[i];
    const std::string url = registry_tarball_of(options.registry, u.name, u.version);
    Pinned* same = find_tarball(list, sha512s[i], url);
    if (same == nullptr) {
      list.tarballs.push_back({u.what, url, sha512s[i], "", ""});
      same = &list.tarballs.back();
    }
    same->registry_path = url.substr(options.registry.size());
  }
  list.unpinned.clear();
  report.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  return report;
}

std::string describe(const IntegrityReport& report) {
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f s", static_cast<double>(report.elapsed.count()) / 1000);
  return "took the registry's integrity of " + std::to_string(report.packages) +
         " packages: " + std::to_string(report.hits) + " known, " +
         std::to_string(report.packages - report.hits) + " version documents read in " + secs;
}

}  // namespace reviewer::deps

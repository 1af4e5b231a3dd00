#include "core/deps/registry_documents.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/deps/download_dir_guard.h"
#include "core/deps/integrity.h"
#include "core/deps/package_source.h"
#include "core/deps/store_index.h"

namespace reviewer::deps {
namespace {

// typescript's whole document was 10.0 MiB and @types/node's 9.0 MiB (2026-12); this bounds a
// hostile registry's answer, not a real one.
constexpr std::uint64_t kMaxDocumentBytes = 128ull << 20;

// The whole document, not the abbreviated one: pnpm 11 asks for the abbreviated form first
// (measured against a logging registry: "application/vnd.npm.install-v1+json; q=1.0,
// application/json; q=0.8, */*") and for the whole one when its settings need what only that
// holds (the publish times of minimumReleaseAge, on npm's registry). The whole document answers
// both, as the Accept header allows; the loopback registry has one document a package.
constexpr const char* kAccept = "application/json";

constexpr const char* kIndexKind = "registry-documents";

util::Refusal invalid(const std::string& name, const std::string& url, const std::string& why) {
  return util::Refusal{"dependency-metadata-invalid",
                       "the registry's metadata of " + name + " (" + url + ") " + why,
                       std::nullopt};
}

// The document's versions when it is a JSON object naming `name`; an error saying why not.
util::Result<std::set<std::string>> document_versions(const std::string& file,
                                                      const std::string& name,
                                                      const std::string& url) {
  std::ifstream in(file, std::ios::binary);
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (!doc.is_object()) {
    return invalid(name, url, "is not a JSON object");
  }
  const auto n = doc.find("name");
  if (n == doc.end() || !n->is_string() || n->get<std::string>() != name) {
    return invalid(name, url, "names another package");
  }
  std::set<std::string> out;
  const auto versions = doc.find("versions");
  if (versions != doc.end() && versions->is_object()) {
    for (const auto& [v, entry] : versions->items()) {
      out.insert(v);
    }
  }
  return out;
}

bool lists_all(const std::set<std::string>& have, const std::set<std::string>& want) {
  return std::includes(have.begin(), have.end(), want.begin(), want.end());
}

}  // namespace

util::Result<DocumentsFetch> fetch_registry_documents(
    const std::map<std::string, std::set<std::string>>& packages, const Store& store,
    Downloader& downloader, const FetchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  DocumentsFetch out;
  auto dir = store.make_temp_dir();
  if (!dir) {
    return dir.refusals();
  }
  DownloadDirGuard guard{*dir};
  std::vector<Download> misses;
  std::vector<std::string> missed_names;
  for (const auto& [name, versions] : packages) {
    const std::string key = registry_url_name(name);
    const std::string index = store_index_path(store, kIndexKind, options.registry, key);
    // The record lists the versions its document holds, so a hit reads no document.
    if (auto known = read_store_record(index)) {
      std::set<std::string> have;
      std::istringstream lines(known->detail);
      for (std::string v; std::getline(lines, v);) {
        have.insert(v);
      }
      auto size = store.size_of(known->sha512);
      if (size && lists_all(have, versions)) {
        out.documents.push_back({name, known->sha512, true, *size});
        continue;
      }
    }
    misses.push_back(
        {options.registry + key, *dir + "/" + std::to_string(misses.size()) + ".json", kAccept});
    missed_names.push_back(name);
  }
  if (auto fetched = downloader.download(misses, kMaxDocumentBytes); !fetched) {
    return fetched.refusals();
  }
  for (std::size_t i = 0; i < misses.size(); ++i) {
    const std::string& name = missed_names[i];
    auto listed = document_versions(misses[i].file, name, misses[i].url);
    if (!listed) {
      return listed.refusals();
    }
    auto sha512 = sha512_file(misses[i].file);
    if (!sha512) {
      return sha512.refusals();
    }
    auto admitted = store.admit(misses[i].file, *sha512, "the registry's metadata of " + name);
    if (!admitted) {
      return admitted.refusals();
    }
    const std::string index =
        store_index_path(store, kIndexKind, options.registry, registry_url_name(name));
    std::string detail;
    for (const auto& v : *listed) {
      detail += v + "\n";
    }
    if (auto recorded = write_store_index(index, *sha512, detail); !recorded) {
      return recorded.refusals();
    }
    out.documents.push_back({name, *sha512, false, *admitted});
  }
  out.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  return out;
}

std::string describe(const DocumentsFetch& fetched) {
  std::uint64_t bytes = 0;
  std::uint64_t downloaded = 0;
  std::size_t hits = 0;
  for (const auto& d : fetched.documents) {
    bytes += d.bytes;
    hits += d.hit ? 1 : 0;
    downloaded += d.hit ? 0 : d.bytes;
  }
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f s", static_cast<double>(fetched.elapsed.count()) / 1000);
  return "the registry's metadata of " + std::to_string(fetched.documents.size()) + " packages (" +
         size_text(bytes) + "): " + std::to_string(hits) + " hits, " +
         std::to_string(fetched.documents.size() - hits) + " downloaded (" + size_text(downloaded) +
         ") in " + secs;
}

}  // namespace reviewer::deps

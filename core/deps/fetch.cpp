// fetch_into_store: hits by a stat, misses downloaded in one go and verified one by one.
#include "core/deps/fetch.h"

#include <cstdio>
#include <filesystem>
#include <set>

#include "core/deps/download_dir_guard.h"
#include "core/deps/integrity_conflict.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

util::Refusal too_large(std::uint64_t bytes, std::uint64_t max) {
  return util::refusal(util::RefusalKind::kBound, "dependency-too-large",
                       "the tarballs the lock file pins are " + std::to_string(bytes) +
                           " bytes or more together, over the " + std::to_string(max) +
                           "-byte bound (--max-dependency-bytes)");
}

}  // namespace

Pinned* find_tarball(FetchList& list, const std::string& sha512, const std::string& url) {
  for (auto& t : list.tarballs) {
    if (t.sha512 == sha512 && t.url == url) {
      return &t;
    }
  }
  return nullptr;
}

util::Result<FetchReport> fetch_into_store(const FetchList& list, const Store& store,
                                           Downloader& downloader, const FetchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (auto one = check_one_integrity_per_url(list); !one) {
    return one.refusals();
  }
  FetchReport report;
  report.tarballs = list.tarballs.size();
  std::vector<const Pinned*> missing;
  // Each tarball once, however many entries name it: past the check above they all pin the same
  // bytes.
  std::set<std::string> tarballs;
  for (const auto& t : list.tarballs) {
    if (!tarballs.insert(tarball_identity(t.url)).second) {
      continue;
    }
    if (auto size = store.size_of(t.sha512)) {
      ++report.hits;
      report.bytes += *size;
    } else {
      missing.push_back(&t);
    }
  }
  // The bound holds whatever the store already has, so a review's verdict does not depend on
  // what other reviews fetched before it.
  if (report.bytes > options.max_total_bytes) {
    return too_large(report.bytes, options.max_total_bytes);
  }
  report.misses = missing.size();
  if (!missing.empty()) {
    auto dir = store.make_temp_dir();
    if (!dir) {
      return dir.refusals();
    }
    DownloadDirGuard guard{*dir};
    std::vector<Download> items;
    for (std::size_t i = 0; i < missing.size(); ++i) {
      items.push_back({missing[i]->url, *dir + "/" + std::to_string(i) + ".tgz"});
    }
    const std::uint64_t budget = options.max_total_bytes - report.bytes;
    if (auto got = downloader.download(items, budget); !got) {
      return got.refusals();
    }
    util::Refusals refusals;
    for (std::size_t i = 0; i < missing.size(); ++i) {
      auto stored = store.admit(items[i].file, missing[i]->sha512, missing[i]->what);
      if (!stored) {
        refusals.push_back(stored.error());
        continue;
      }
      report.bytes += *stored;
      report.bytes_fetched += *stored;
    }
    if (!refusals.empty()) {
      return refusals;
    }
    if (report.bytes > options.max_total_bytes) {
      return too_large(report.bytes, options.max_total_bytes);
    }
  }
  report.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  return report;
}

std::string size_text(std::uint64_t bytes) {
  if (bytes == 0) {
    return "nothing";
  }
  char buf[32];
  if (bytes >= (1u << 20)) {
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / 1024);
  }
  return buf;
}

std::string describe(const FetchList& list, const FetchReport& r) {
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f s", static_cast<double>(r.elapsed.count()) / 1000);
  std::string out = list.lock_file + ": " + std::to_string(r.tarballs) + " tarballs (" +
                    size_text(r.bytes) + "), " + std::to_string(r.hits) + " hits, " +
                    std::to_string(r.misses) + " misses, " + size_text(r.bytes_fetched) +
                    " downloaded in " + secs;
  if (list.project_links > 0) {
    out += "; " + std::to_string(list.project_links) +
           (list.project_links == 1 ? " link" : " links") + " to folders of the project";
  }
  if (list.other_platform > 0) {
    out += "; " + std::to_string(list.other_platform) +
           (list.other_platform == 1 ? " optional entry" : " optional entries") +
           " for other platforms left out";
  }
  return out;
}

}  // namespace reviewer::deps

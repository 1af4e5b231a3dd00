#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/util/result.h"

namespace reviewer::deps {

// One tarball to download: a registry URL already checked by registry_tarball_url(), and the
// file (inside the store's download directory) to write it to.
struct Download {
  std::string url;
  std::string file;
  // The Accept header to send, the same for every item of one download() call; "" for none
  // (a registry document is asked for as the package manager that reads it asks).
  std::string accept = {};
};

// How tarballs reach the host. The real one is the host's HTTPS client (core/host); tests hand
// in one that serves files. Nothing it writes is trusted: the store verifies every file.
class Downloader {
 public:
  virtual ~Downloader() = default;
  // Downloads every item, each at most `max_bytes_each`, counted as written whether or not the
  // server declares a size. Refusals: `dependency-too-large` when an item is larger, or when the
  // downloader's bound on what all its calls write together is reached (the host's counts a
  // whole review: deps::DownloadMeter), its files then removed; `dependency-fetch-failed`
  // naming what could not be downloaded.
  virtual util::Status download(const std::vector<Download>& items,
                                std::uint64_t max_bytes_each) = 0;
  // Downloads one registry document (`item.url`, already checked to be the registry's), at most
  // `max_bytes`: true when written, false when the registry answers 404 (it does not have it).
  // Refusal `dependency-too-large` past either bound, as download(); `dependency-fetch-failed`
  // for any other failure. The default fetches nothing.
  virtual util::Result<bool> download_document(const Download& item, std::uint64_t max_bytes) {
    (void)max_bytes;
    return util::refusal(util::RefusalKind::kHost, "dependency-fetch-failed",
                         "this downloader cannot fetch registry documents (" + item.url + ")");
  }
};

}  // namespace reviewer::deps

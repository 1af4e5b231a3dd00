#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/util/result.h"

namespace reviewer::fetch {

// One tarball to download: a registry URL already checked by registry_tarball_url(), and the
// file (inside the store's download directory) to write it to.
struct Download {
  std::string url;
  std::string file;
};

// How tarballs reach the host. The real one is the host's HTTPS client (core/host); tests hand
// in one that serves files. Nothing it writes is trusted: the store verifies every file.
class Downloader {
 public:
  virtual ~Downloader() = default;
  // Downloads every item, each at most `max_bytes_each`. Refusals: `dependency-too-large` when an
  // item is larger, `dependency-fetch-failed` naming what could not be downloaded.
  virtual util::Status download(const std::vector<Download>& items,
                                std::uint64_t max_bytes_each) = 0;
};

}  // namespace reviewer::fetch

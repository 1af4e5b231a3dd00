#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/deps/downloader.h"
#include "core/deps/packument_cache.h"
#include "core/util/result.h"
#include "core/util/unique_fd.h"

// The only thing a resolution sandbox reaches (issue 37, finding 3): an HTTP registry the host
// serves on a socket in the sandbox's network namespace (deps/sandbox_network.h). It answers GET
// for a package's metadata document or one of its tarballs by a plain package name, fetching it
// from the configured registry with the host's downloader (every byte counted against the
// review's bound), and nothing else: no other method, path, host or query reaches the network.
// Its clients run in the sandbox and are hostile: a request head is bounded in size and time,
// connections are bounded in number, and every answer is the registry's bytes as the host read
// them. The documents it served are the metadata the review installs from (deps::Packument),
// recorded by the host, not read back from what the sandbox wrote.
namespace reviewer::deps {

struct ResolutionRegistryLimits {
  std::size_t max_connections = 16;  // served at once; more wait in the listen queue
  std::size_t max_requests = 20000;  // in all; past it the registry answers 503
  // How long a connection may take to send a request head, or to take an answer's bytes.
  std::chrono::milliseconds timeout = std::chrono::seconds(30);
  std::uint64_t max_document_bytes = std::uint64_t{128} << 20;  // one document or tarball
};

class ResolutionRegistry {
 public:
  // Serves on `listener` (listening already) from `registry` (an URL ending in '/') through
  // `downloader`, writing what it fetches below `dir` (which must exist), until finish().
  ResolutionRegistry(util::UniqueFd listener, std::string registry, deps::Downloader& downloader,
                     std::string dir, ResolutionRegistryLimits limits = {});
  ~ResolutionRegistry();
  ResolutionRegistry(const ResolutionRegistry&) = delete;
  ResolutionRegistry& operator=(const ResolutionRegistry&) = delete;

  // "http://127.0.0.1:PORT/", the registry the sandbox's package manager is given.
  std::string url() const;

  // Stops serving, closes every connection, and returns the metadata documents served, in the
  // order first asked for; or the first failure of a download the registry could not make
  // (`dependency-too-large`, `dependency-fetch-failed`, `resolution-too-many-requests`), which
  // is why the sandbox's package manager failed.
  util::Result<std::vector<deps::ServedMetadata>> finish();

  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace reviewer::deps

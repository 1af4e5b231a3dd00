#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/deps/catalogue/node_release_notes.h"
#include "core/deps/download_meter.h"
#include "core/resolve/runtime_catalogue.h"
#include "core/util/result.h"

// `reviewer runtimes update`: the trusted runtime catalogue rebuilt from the npm registry. Each
// release new to the catalogue is downloaded once, held to the registry's integrity, and the
// SHA-256 of its runtime file recorded; a release the catalogue already holds is not downloaded
// again, and the registry must still give it the integrity the catalogue recorded. Tarballs are
// kept in a work folder, so an interrupted update resumes where it stopped.
namespace reviewer::deps {

// What the update reads of the registry: a package's published releases, and a tarball.
class CatalogueRegistry {
 public:
  struct Release {
    std::string version;
    std::string integrity;  // dist.integrity
    std::string tarball;    // dist.tarball, checked to be the registry's own
    std::string published;  // YYYY-MM-DD of time[version]; empty when the document has none
  };
  virtual ~CatalogueRegistry() = default;
  virtual util::Result<std::vector<Release>> releases(const std::string& package) = 0;
  // Downloads `url` to `file`, at most `max_bytes`.
  virtual util::Status download(const std::string& url, const std::string& file,
                                std::uint64_t max_bytes) = 0;
};

// The registry at `registry` (an https URL ending in '/'), every byte counted against `meter`;
// documents pass through `work_dir`, the update's own folder.
std::unique_ptr<CatalogueRegistry> make_catalogue_registry(std::string registry,
                                                           std::string work_dir,
                                                           std::shared_ptr<DownloadMeter> meter);

struct CatalogueUpdate {
  std::string work_dir;  // tarballs are kept here between runs
  // Node's release posts by version (read_node_release_notes); empty: the bundles and dates of
  // releases already recorded are kept and new releases have theirs unrecorded.
  std::map<std::string, NodeReleaseNote> notes;
  std::size_t max_downloads = 2000;  // tarballs one run may download
  std::uint64_t max_bytes_each = 256ull << 20;
  std::function<void(const std::string&)> progress = [](const std::string&) {};
};

// `old` brought up to the registry's releases. Refusals: catalogue-integrity-changed (the
// registry now gives a recorded release another integrity: the catalogue keeps what was
// reviewed, and a person must look), catalogue-update-bound (max_downloads reached; what was
// downloaded stays in the work folder for the next run), and the download's and the file's own.
util::Result<resolve::RuntimeCatalogue> update_runtime_catalogue(
    const resolve::RuntimeCatalogue& old, CatalogueRegistry& registry,
    const CatalogueUpdate& options);

}  // namespace reviewer::deps

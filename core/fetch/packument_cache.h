#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fetch/store.h"
#include "core/util/result.h"

namespace reviewer::fetch {

// The registry metadata (packuments) npm read while resolving a project that has no lock file,
// as npm's own cache (cacache, `_cacache/index-v5` and `content-v2`) holds them after
// `npm install --package-lock-only`. `npm install --offline` in the review resolves from exactly
// these, so it resolves what the resolution sandbox resolved (docs/fidelity.md, "Without a lock
// file").
struct Packument {
  std::string name;     // the package, as npm names it in the URL ("@scope%2fname")
  std::string key;      // "make-fetch-happen:request-cache:<registry><name>"
  std::string hash;     // the index line's SHA-1 of `line`, as cacache wrote it
  std::string line;     // the index entry's JSON, byte for byte as verified
  std::string sha512;   // lower-case hex of the metadata document (the content's name)
  std::string content;  // its path in the resolution's cache
};

struct PackumentBounds {
  std::size_t max_entries = 50000;           // index lines together
  std::uint64_t max_bucket_bytes = 1 << 20;  // one index bucket file
};

// Reads the cacache index the resolution sandbox left at `cache_dir` (holding `_cacache`), which
// came out of a sandbox and is hostile input: only directories and regular files, each index
// line's SHA-1 matching its JSON, every key a packument URL of `registry` (an https URL ending in
// '/') with a plain package name, a sha512 integrity naming a content file that exists. The
// content's hash is checked when it enters the store (Store::admit), not here. Refusal
// `dependency-resolution-invalid` naming what is wrong. A key npm wrote more than once keeps its
// last line, as cacache reads it.
util::Result<std::vector<Packument>> read_packuments(const std::string& cache_dir,
                                                     const std::string& registry,
                                                     const PackumentBounds& bounds = {});

// Puts the metadata documents of `packuments` in `store` (each verified against its sha512 as it
// enters, Store::admit), so a view can hold them. Refusals: `dependency-integrity-mismatch`
// (npm's cache held other bytes under that name), `dependency-store`.
util::Status store_packuments(const std::vector<Packument>& packuments, const Store& store);

// Writes the index entries of `packuments` into the npm cache at `view_dir` (`_cacache/index-v5`,
// at the bucket cacache computes from each key), so npm finds the metadata by URL; the content
// itself is placed by Store::make_view. Error `dependency-store`.
util::Status write_packument_index(const std::string& view_dir,
                                   const std::vector<Packument>& packuments);

}  // namespace reviewer::fetch

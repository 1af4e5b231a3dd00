#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/deps/store.h"
#include "core/util/result.h"

namespace reviewer::deps {

// The registry metadata (packuments) npm read while resolving a project that has no lock file,
// as the host's resolution registry served them (deps/resolution_registry.h), indexed as npm's
// own cache (cacache) would hold them had npm fetched them from the registry itself: `npm
// install --offline` in the review resolves from exactly these, so it resolves what the
// resolution sandbox resolved (docs/dependencies.md, "Without a lock file").
struct Packument {
  std::string name;     // the package, as npm names it in the URL ("@scope%2fname")
  std::string key;      // "make-fetch-happen:request-cache:<registry><name>"
  std::string hash;     // the index line's SHA-1 of `line`, as cacache writes it
  std::string line;     // the index entry's JSON
  std::string sha512;   // lower-case hex of the metadata document (the content's name)
  std::string content;  // the document, on the host
};

// One metadata document as the host fetched and served it.
struct ServedMetadata {
  std::string name;          // as the registry's URL spells it: "chalk", "@types%2fnode"
  std::string file;          // its bytes, as downloaded, on the host
  std::string accept;        // the Accept header the host sent for it
  std::string content_type;  // what it was served as
  std::int64_t time_ms = 0;  // when it was fetched (Unix milliseconds)
};

// The cache entry of `served`, a document of `registry` (an URL ending in '/'): its key, the
// SHA-512 of its bytes and the index line make-fetch-happen writes for a document it fetched.
// Refusal `dependency-store` when the file cannot be read.
util::Result<Packument> served_packument(const ServedMetadata& served, const std::string& registry);

// Puts the metadata documents of `packuments` in `store` (each verified against its sha512 as it
// enters, Store::admit), so a view can hold them. Refusals: `dependency-integrity-mismatch`
// (the bytes changed since they were served), `dependency-store`.
util::Status store_packuments(const std::vector<Packument>& packuments, const Store& store);

// Writes the index entries of `packuments` into the npm cache at `view_dir` (`_cacache/index-v5`,
// at the bucket cacache computes from each key), so npm finds the metadata by URL; the content
// itself is placed by Store::make_view. Error `dependency-store`.
util::Status write_packument_index(const std::string& view_dir,
                                   const std::vector<Packument>& packuments);

}  // namespace reviewer::deps

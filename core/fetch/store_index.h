#pragma once

#include <optional>
#include <string>

#include "core/fetch/store.h"
#include "core/util/result.h"

// The store's records of what a registry served under a name: one small file a key, holding the
// SHA-512 of the bytes in the store, so a later review finds them without asking the registry.
namespace reviewer::fetch {

// The record of `key` ("pnpm@10.33.0", "@types%2fnode") under `kind` for `registry`: a file
// under a directory named after the registry (its URL with every byte but [A-Za-z0-9.-] as '_').
std::string store_index_path(const Store& store, const std::string& kind,
                             const std::string& registry, const std::string& key);

// The SHA-512 (lower-case hex) the record at `path` holds; nullopt when there is none or it
// holds anything else.
std::optional<std::string> read_store_index(const std::string& path);

// Records `sha512` at `path`, atomically: a concurrent review reads the old record or this one.
// Error `dependency-store`.
util::Status write_store_index(const std::string& path, const std::string& sha512);

}  // namespace reviewer::fetch

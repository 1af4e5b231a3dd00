#pragma once

#include <optional>
#include <string>

#include "core/deps/store.h"
#include "core/util/result.h"

// The store's records of what a registry served under a name: one small file a key, holding the
// SHA-512 of the bytes in the store, so a later review finds them without asking the registry.
namespace reviewer::deps {

// The record of `key` ("pnpm@10.33.0", "@types%2fnode") under `kind` for `registry`: a file
// under a directory named after the registry (its URL with every byte but [A-Za-z0-9.-] as '_').
std::string store_index_path(const Store& store, const std::string& kind,
                             const std::string& registry, const std::string& key);

struct StoreRecord {
  std::string sha512;  // lower-case hex
  std::string detail;  // what the writer recorded with it (the lines after the hash)
};

// The record at `path` (at most 1 MiB); nullopt when there is none or its first line is not a
// SHA-512 in lower-case hex.
std::optional<StoreRecord> read_store_record(const std::string& path);

// The SHA-512 the record at `path` holds (read_store_record's).
std::optional<std::string> read_store_index(const std::string& path);

// Records `sha512`, and `detail` after it, at `path`, atomically: a concurrent review reads the
// old record or this one, never a hash with another's detail. Error `dependency-store`.
util::Status write_store_index(const std::string& path, const std::string& sha512,
                               const std::string& detail = "");

}  // namespace reviewer::deps

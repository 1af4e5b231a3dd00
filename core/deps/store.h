#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/util/result.h"

namespace reviewer::deps {

// The content-addressed store of verified tarballs, shared by every review on a host. A tarball
// lives at the path npm's cache (cacache) gives content of that SHA-512,
// `<root>/_cacache/content-v2/sha512/<2 hex>/<2 hex>/<124 hex>`, so the store, or a view of
// it, is an npm cache directory npm reads by integrity. Nothing enters it unverified: admit()
// hashes the file first, and the rename that publishes it is atomic, so concurrent reviews
// see a tarball whole or not at all.
class Store {
 public:
  // Opens (creating, mode 0755) the store at `root`; error `dependency-store` when it cannot.
  static util::Result<Store> open(const std::string& root);

  const std::string& root() const { return root_; }
  // Where the tarball of `sha512_hex` lives, relative to a store or view root.
  static std::string relative_path(const std::string& sha512_hex);
  // Its size when the store has it as a regular file; a hit.
  std::optional<std::uint64_t> size_of(const std::string& sha512_hex) const;
  // A fresh directory for downloads inside the store (same filesystem, so admit() renames).
  util::Result<std::string> make_temp_dir() const;
  // Verifies that `file` has the SHA-512 `sha512_hex` and moves it into place (mode 0644);
  // returns its size. Refusal `dependency-integrity-mismatch` naming `what` and both integrities
  // when it does not (the file is removed); `dependency-store` when it cannot be moved.
  util::Result<std::uint64_t> admit(const std::string& file, const std::string& sha512_hex,
                                    const std::string& what) const;
  // Makes `dir` an npm cache holding exactly `sha512_hexes` (hard links into the store, copies
  // where links cannot be made), so a review sees the tarballs its lock pins and nothing else.
  util::Status make_view(const std::vector<std::string>& sha512_hexes,
                         const std::string& dir) const;
  // Places the tarball of `sha512_hex` also at `dir`/`relative` (a path of plain names, no
  // `..`), for package managers that look it up by name: pnpm's file: registry.
  util::Status link_as(const std::string& sha512_hex, const std::string& dir,
                       const std::string& relative) const;

 private:
  explicit Store(std::string root) : root_(std::move(root)) {}
  // Links (or copies) the tarball of `hex` to `dir`/`relative`, making its directories; `what`
  // names it in the error.
  util::Status place(const std::string& hex, const std::string& dir,
                     const std::filesystem::path& relative, const std::string& what) const;
  std::string root_;
};

}  // namespace reviewer::deps

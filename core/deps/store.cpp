#include "core/deps/store.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>

#include "core/deps/integrity.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

util::Refusal store_error(const std::string& what, const std::error_code& ec) {
  return util::refusal(util::RefusalKind::kHost, "dependency-store", what + ": " + ec.message());
}

// Directories the sandbox user must be able to read through the read-only mount.
bool make_dirs(const fs::path& dir, std::error_code& ec) {
  fs::create_directories(dir, ec);
  if (ec) {
    return false;
  }
  fs::permissions(dir,
                  fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                      fs::perms::others_read | fs::perms::others_exec,
                  ec);
  return !ec;
}

// make_dirs for `root` and each directory from it down to `root`/`relative`, so a umask of the
// host's cannot leave one of them unreadable in the sandbox.
bool make_chain(const fs::path& root, const fs::path& relative, std::error_code& ec) {
  fs::path dir = root;
  if (!make_dirs(dir, ec)) {
    return false;
  }
  for (const auto& part : relative) {
    dir /= part;
    if (!make_dirs(dir, ec)) {
      return false;
    }
  }
  return true;
}

}  // namespace

util::Result<Store> Store::open(const std::string& root) {
  std::error_code ec;
  const fs::path abs = fs::absolute(root, ec);
  if (ec || !make_chain(abs, "_cacache/content-v2/sha512", ec) || !make_dirs(abs / "tmp", ec)) {
    return store_error("cannot make the dependency store " + root, ec);
  }
  return Store(abs.lexically_normal().string());
}

std::string Store::relative_path(const std::string& hex) {
  return "_cacache/content-v2/sha512/" + hex.substr(0, 2) + "/" + hex.substr(2, 2) + "/" +
         hex.substr(4);
}

std::optional<std::uint64_t> Store::size_of(const std::string& hex) const {
  struct stat st {};
  if (::lstat((root_ + "/" + relative_path(hex)).c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(st.st_size);
}

util::Result<std::string> Store::make_temp_dir() const {
  std::string pattern = root_ + "/tmp/fetch.XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    return util::refusal(util::RefusalKind::kHost, "dependency-store",
                         "cannot make a download directory in " + root_);
  }
  return pattern;
}

util::Result<std::uint64_t> Store::admit(const std::string& file, const std::string& hex,
                                         const std::string& what) const {
  std::error_code ec;
  auto got = sha512_file(file);
  if (!got || *got != hex) {
    fs::remove(file, ec);
    return util::refusal(
        "dependency-integrity-mismatch",
        what + " downloaded with integrity " + (got ? integrity_of_hex(*got) : "(unreadable)") +
            ", but the lock file pins " + integrity_of_hex(hex) +
            "; the tarball was not stored (the registry served other bytes than the lock "
            "recorded, or the lock's integrity was edited)");
  }
  const fs::path relative = relative_path(hex);
  const fs::path target = fs::path(root_) / relative;
  fs::permissions(file,
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                      fs::perms::others_read,
                  ec);
  if (ec || !make_chain(root_, relative.parent_path(), ec)) {
    return store_error("cannot store " + what, ec);
  }
  fs::rename(file, target, ec);
  if (ec) {
    return store_error("cannot store " + what, ec);
  }
  return static_cast<std::uint64_t>(fs::file_size(target, ec));
}

util::Status Store::link_as(const std::string& hex, const std::string& dir,
                            const std::string& relative) const {
  const fs::path rel(relative);
  for (const auto& part : rel) {
    if (part == ".." || part == "." || part.empty() || rel.is_absolute()) {
      return util::refusal(util::RefusalKind::kHost, "dependency-store",
                           "cannot place \"" + relative + "\" in " + dir);
    }
  }
  return place(hex, dir, rel, relative);
}

util::Status Store::make_view(const std::vector<std::string>& hexes, const std::string& dir) const {
  for (const auto& hex : hexes) {
    if (auto placed = place(hex, dir, relative_path(hex), hex.substr(0, 16) + "..."); !placed) {
      return placed;
    }
  }
  return util::ok_status();
}

util::Status Store::place(const std::string& hex, const std::string& dir,
                          const std::filesystem::path& relative, const std::string& what) const {
  std::error_code ec;
  const fs::path from = fs::path(root_) / relative_path(hex);
  const fs::path to = fs::path(dir) / relative;
  if (!make_chain(dir, relative.parent_path(), ec)) {
    return store_error("cannot make the dependency view " + dir, ec);
  }
  // A hard link where the view is on the store's filesystem, a copy elsewhere; what is already
  // there (the same tarball named twice) is kept.
  fs::create_hard_link(from, to, ec);
  if (ec && ec != std::errc::file_exists) {
    ec.clear();
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  }
  if (ec && ec != std::errc::file_exists) {
    return store_error("cannot place " + what + " in " + dir, ec);
  }
  return util::ok_status();
}

}  // namespace reviewer::deps

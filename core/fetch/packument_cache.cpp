#include "core/fetch/packument_cache.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "core/fetch/integrity.h"
#include "core/fetch/package_source.h"
#include "core/fetch/store.h"
#include "core/util/unique_fd.h"

namespace reviewer::fetch {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kKeyPrefix = "make-fetch-happen:request-cache:";

util::Refusal invalid(const std::string& what) {
  return {"dependency-resolution-invalid", "the resolution's npm cache: " + what, std::nullopt};
}

std::string hex_digest(const EVP_MD* md, std::string_view bytes) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), out.data(), &len, md, nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < len; ++i) {
    hex += kHex[out[i] >> 4];
    hex += kHex[out[i] & 15];
  }
  return hex;
}

// What npm puts after the registry in a packument URL: a name as the registry spells it, a scope
// escaped as `@scope%2fname`. Nothing that could be a path (`/`, `..`) or a query.
bool plain_package_name(std::string_view name) {
  auto plain = [](std::string_view part) {
    if (part.empty() || part == "." || part == "..") {
      return false;
    }
    for (char c : part) {
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      std::string_view("._~!'()*-").find(c) != std::string_view::npos;
      if (!ok) {
        return false;
      }
    }
    return true;
  };
  if (!name.empty() && name.front() == '@') {
    const auto sep = name.find("%2f");
    return sep != std::string_view::npos && plain(name.substr(1, sep - 1)) &&
           plain(name.substr(sep + 3));
  }
  return plain(name);
}

// `<prefix><name>/-/<file>.tgz`: a tarball of the registry, by the path npm gives it.
bool is_registry_tarball(std::string_view key, const std::string& prefix) {
  if (key.rfind(prefix, 0) != 0) {
    return false;
  }
  key.remove_prefix(prefix.size());
  const auto dash = key.find("/-/");
  if (dash == std::string_view::npos || key.size() < 4 || key.substr(key.size() - 4) != ".tgz") {
    return false;
  }
  std::string_view name = key.substr(0, dash);
  if (!name.empty() && name.front() == '@') {
    const auto slash = name.find('/');  // a scoped tarball path keeps the scope's slash
    if (slash == std::string_view::npos) {
      return false;
    }
    return plain_package_name(registry_url_name(std::string(name))) &&
           plain_package_name(key.substr(dash + 3, key.size() - dash - 7));
  }
  return plain_package_name(name) &&
         plain_package_name(key.substr(dash + 3, key.size() - dash - 7));
}

util::Result<std::string> read_bucket(const fs::path& path, std::uint64_t max_bytes) {
  util::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return invalid(path.string() + " is not a regular file");
  }
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    return invalid(path.string() + " is larger than " + std::to_string(max_bytes) + " bytes");
  }
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd.get(), text.data() + got, text.size() - got);
    if (n <= 0) {
      return invalid("cannot read " + path.string());
    }
    got += static_cast<std::size_t>(n);
  }
  return text;
}

// One index line, `<sha1 of json>\t<json>`, into the packument it names; nullopt for a deleted
// entry (cacache writes `"integrity": null` when one is removed).
util::Result<std::optional<Packument>> parse_line(std::string_view line, const std::string& where,
                                                  const std::string& registry,
                                                  const fs::path& cacache) {
  const auto tab = line.find('\t');
  if (tab == std::string_view::npos) {
    return invalid(where + ": a line without its hash");
  }
  Packument p;
  p.hash = std::string(line.substr(0, tab));
  p.line = std::string(line.substr(tab + 1));
  if (hex_digest(EVP_sha1(), p.line) != p.hash) {
    return invalid(where + ": a line whose SHA-1 is not its hash");
  }
  const auto j = nlohmann::json::parse(p.line, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("key") || !j["key"].is_string()) {
    return invalid(where + ": an entry without a key");
  }
  p.key = j["key"].get<std::string>();
  const std::string prefix = std::string(kKeyPrefix) + registry;
  if (is_registry_tarball(p.key, prefix)) {
    // npm reads a few tarballs while resolving (a package with bundled dependencies); the
    // review's tarballs come from the lock, fetched and verified by the host.
    return std::optional<Packument>();
  }
  if (p.key.rfind(prefix, 0) != 0 ||
      !plain_package_name(std::string_view(p.key).substr(prefix.size()))) {
    return invalid(where + ": the key \"" + p.key.substr(0, 200) +
                   "\" is not a package's metadata at " + registry);
  }
  p.name = p.key.substr(prefix.size());
  if (j.contains("integrity") && j["integrity"].is_null()) {
    return std::optional<Packument>();
  }
  if (!j.contains("integrity") || !j["integrity"].is_string()) {
    return invalid(where + ": the entry of " + p.name + " has no integrity");
  }
  auto hex = sha512_of_integrity(j["integrity"].get<std::string>(), p.name);
  if (!hex) {
    return invalid(where + ": the entry of " + p.name + " has no sha512 integrity");
  }
  p.sha512 = *hex;
  p.content = (cacache.parent_path() / Store::relative_path(p.sha512)).string();
  struct stat st {};
  if (::lstat(p.content.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return invalid(where + ": the metadata of " + p.name + " is not in the cache");
  }
  return std::optional<Packument>(std::move(p));
}

}  // namespace

util::Result<std::vector<Packument>> read_packuments(const std::string& cache_dir,
                                                     const std::string& registry,
                                                     const PackumentBounds& bounds) {
  const fs::path cacache = fs::path(cache_dir) / "_cacache";
  const fs::path index = cacache / "index-v5";
  struct stat st {};
  if (::lstat(index.c_str(), &st) != 0) {
    return std::vector<Packument>();  // npm read no metadata: nothing to resolve
  }
  if (!S_ISDIR(st.st_mode)) {
    return invalid(index.string() + " is not a directory");
  }
  std::map<std::string, Packument> by_key;
  std::size_t lines = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(index, fs::directory_options::none, ec), end;
       !ec && it != end; it.increment(ec)) {
    const fs::file_status s = it->symlink_status(ec);
    if (fs::is_directory(s)) {
      continue;
    }
    if (!fs::is_regular_file(s)) {
      return invalid(it->path().string() + " is neither a directory nor a regular file");
    }
    auto text = read_bucket(it->path(), bounds.max_bucket_bytes);
    if (!text) {
      return text.error();
    }
    std::string_view rest(*text);
    while (!rest.empty()) {
      const auto nl = rest.find('\n');
      const std::string_view line = rest.substr(0, nl);
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
      if (line.empty()) {
        continue;
      }
      if (++lines > bounds.max_entries) {
        return invalid("more than " + std::to_string(bounds.max_entries) + " index entries");
      }
      auto entry =
          parse_line(line, it->path().lexically_relative(cache_dir).string(), registry, cacache);
      if (!entry) {
        return entry.error();
      }
      if (*entry) {
        by_key[(*entry)->key] = std::move(**entry);
      }
    }
  }
  if (ec) {
    return invalid("cannot walk " + index.string() + ": " + ec.message());
  }
  std::vector<Packument> out;
  for (auto& [key, p] : by_key) {
    out.push_back(std::move(p));
  }
  return out;
}

util::Status store_packuments(const std::vector<Packument>& packuments, const Store& store) {
  std::string temp;
  for (const auto& p : packuments) {
    if (store.size_of(p.sha512)) {
      continue;
    }
    if (temp.empty()) {
      auto made = store.make_temp_dir();
      if (!made) {
        return made.refusals();
      }
      temp = *made;
    }
    // A copy, never a link: the resolution's cache belongs to the sandbox that wrote it.
    const std::string copy = temp + "/" + p.sha512;
    std::error_code ec;
    struct stat st {};
    if (::lstat(p.content.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        !fs::copy_file(p.content, copy, fs::copy_options::overwrite_existing, ec)) {
      fs::remove_all(temp, ec);
      return util::refusal("dependency-store", "cannot copy the metadata of " + p.name);
    }
    if (auto admitted = store.admit(copy, p.sha512, "the registry metadata of " + p.name);
        !admitted) {
      fs::remove_all(temp, ec);
      return admitted.refusals();
    }
  }
  if (!temp.empty()) {
    std::error_code ec;
    fs::remove_all(temp, ec);
  }
  return util::ok_status();
}

util::Status write_packument_index(const std::string& view_dir,
                                   const std::vector<Packument>& packuments) {
  for (const auto& p : packuments) {
    // cacache's bucket: the SHA-256 of the key, split as 2/2/rest under index-v5.
    const std::string h = hex_digest(EVP_sha256(), p.key);
    const fs::path dir =
        fs::path(view_dir) / "_cacache" / "index-v5" / h.substr(0, 2) / h.substr(2, 2);
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path file = dir / h.substr(4);
    util::UniqueFd fd(
        ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644));
    const std::string text = "\n" + p.hash + "\t" + p.line;
    if (ec || !fd.valid() ||
        ::write(fd.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
      return util::refusal("dependency-store", "cannot write the metadata index " + file.string());
    }
  }
  return util::ok_status();
}

}  // namespace reviewer::fetch

#include "core/plugins/plugin_library.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <boost/dll/shared_library.hpp>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/plugins/capabilities.h"
#include "core/plugins/elf_entry.h"
#include "core/plugins/file_checks.h"
#include "core/util/sha256.h"
#include "core/util/unique_fd.h"

namespace reviewer::plugins {
namespace {

constexpr const char* kEntrySymbol = REVIEWER_ENTRY_PREFIX "1";
static_assert(REVIEWER_ABI_VERSION == 1, "update kEntrySymbol with the ABI generation");

util::Refusal refuse(const std::string& rule, const std::string& path, const std::string& message) {
  return util::refusal(rule, message, util::SourceLocation{path, 0, 0});
}

bool is_sha(const char* s) {
  if (s == nullptr || std::strlen(s) != 40) {
    return false;
  }
  for (const char* p = s; *p != 0; ++p) {
    if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) {
      return false;
    }
  }
  return true;
}

// Libraries are never unloaded: objects made by a plugin do not keep it alive, so the handles
// live in storage that is never destroyed.
std::vector<boost::dll::shared_library>& loaded_libraries() {
  static auto* libs = new std::vector<boost::dll::shared_library>();
  return *libs;
}

// YYYY-MM-DD, digits where digits go: what a review record's date looks like.
bool is_date(const std::string& s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') {
    return false;
  }
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (s[i] < '0' || s[i] > '9') {
      return false;
    }
  }
  return true;
}

util::Result<std::vector<Claim>> copy_claims(const reviewer_plugin_descriptor& d,
                                             const std::string& path) {
  std::vector<Claim> claims;
  if (d.claims == nullptr || d.claim_count == 0) {
    return refuse("plugin-invalid-claim", path, "plugin claims no action");
  }
  std::string reviewed_on;
  if (d.reviewed_on != nullptr) {
    reviewed_on = d.reviewed_on;
    if (!is_date(reviewed_on)) {
      return refuse(
          "plugin-invalid-claim", path,
          fmt::format("its review date '{}' is not YYYY-MM-DD", reviewed_on.substr(0, 40)));
    }
  }
  // The capabilities' slot was reserved (NULL) before SDK 1.10; a descriptor too short to hold
  // it is refused elsewhere.
  const std::uint32_t* capabilities =
      d.struct_size >= offsetof(reviewer_plugin_descriptor, capabilities) + sizeof(void*)
          ? d.capabilities
          : nullptr;
  for (std::size_t i = 0; i < d.claim_count; ++i) {
    const reviewer_claim& c = d.claims[i];
    if (c.action == nullptr || *c.action == 0) {
      return refuse("plugin-invalid-claim", path, "a claim has no action id");
    }
    Claim out{c.action, {}, reviewed_on, capabilities == nullptr ? 0 : capabilities[i]};
    if (auto bad = check_capabilities(out.capabilities); !bad.empty()) {
      return refuse("plugin-invalid-claim", path,
                    fmt::format("action '{}' claims {}", c.action, bad));
    }
    for (std::size_t j = 0; j < c.ref_count; ++j) {
      if (!is_sha(c.refs[j].sha) || c.refs[j].tag == nullptr) {
        return refuse("plugin-invalid-claim", path,
                      fmt::format("action '{}' lists a reviewed ref that is not a full "
                                  "lower-case 40-hex commit SHA with a tag",
                                  c.action));
      }
      out.refs.push_back({c.refs[j].sha, c.refs[j].tag});
    }
    claims.push_back(std::move(out));
  }
  return claims;
}

}  // namespace

bool plugin_trace_enabled() {
  const char* v = std::getenv("REVIEWER_DEBUG_PLUGINS");
  return v != nullptr && *v != 0 && std::strcmp(v, "0") != 0;
}

util::Status check_candidate(const std::string& path, const Manifest& manifest) {
  struct stat lst {};
  if (::lstat(path.c_str(), &lst) != 0) {
    return refuse("plugin-not-regular", path, fmt::format("cannot stat '{}'", path));
  }
  if (S_ISLNK(lst.st_mode)) {
    return refuse("plugin-symlink", path, fmt::format("'{}' is a symlink", path));
  }
  if (!S_ISREG(lst.st_mode)) {
    return refuse("plugin-not-regular", path, fmt::format("'{}' is not a regular file", path));
  }
  if (auto owned = check_ownership(lst, path, "plugin-permissions"); !owned) {
    return owned;
  }
  const std::string file = std::filesystem::path(path).filename();
  if (!manifest.contains(file)) {
    return refuse("plugin-not-in-manifest", path,
                  fmt::format("'{}' is not listed in the install manifest", file));
  }
  return util::ok_status();
}

util::Result<PluginLibrary> load_plugin(const std::string& path, const Manifest& manifest) {
  const std::string file = std::filesystem::path(path).filename();
  const std::string stem = std::filesystem::path(path).stem();
  if (auto bad = check_candidate(path, manifest); !bad) {
    return bad.refusals();
  }
  // Everything after this point reads the file through one descriptor, so what is hashed,
  // inspected and loaded is the same inode; the checks above are made again on it, so a file
  // swapped in since then is held to them too. The descriptor stays open for the life of the
  // process, which keeps each /proc/self/fd path unique for the dynamic loader.
  int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (raw < 0) {
    return refuse(errno == ELOOP ? "plugin-symlink" : "plugin-not-regular", path,
                  fmt::format("cannot open '{}'", path));
  }
  util::UniqueFd fd(raw);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return refuse("plugin-not-regular", path, fmt::format("'{}' changed while opened", path));
  }
  if (auto owned = check_ownership(st, path, "plugin-permissions"); !owned) {
    return owned.refusals();
  }
  const std::string fd_path = "/proc/self/fd/" + std::to_string(fd.get());
  auto listed = manifest.find(file);
  auto hash = util::sha256_fd(fd.get(), path);
  if (!hash) {
    return refuse("plugin-not-regular", path, hash.error().message);
  }
  if (*hash != listed->second) {
    return refuse(
        "plugin-hash-mismatch", path,
        fmt::format("'{}' has SHA-256 {}, the manifest says {}", file, *hash, listed->second));
  }
  auto symbols = section_symbols(fd.get(), REVIEWER_ENTRY_SECTION, path);
  if (!symbols) {
    return symbols.error();
  }
  bool has_entry = false;
  std::string other;
  for (const auto& s : *symbols) {
    if (s == kEntrySymbol) {
      has_entry = true;
    }
    if (s.starts_with(REVIEWER_ENTRY_PREFIX) && s != kEntrySymbol) {
      other = s;
    }
  }
  if (!has_entry && !other.empty()) {
    return refuse("plugin-abi-mismatch", path,
                  fmt::format("'{}' was built for another plugin ABI: expected entry '{}', "
                              "found '{}'",
                              file, kEntrySymbol, other));
  }
  if (!has_entry) {
    return refuse("plugin-no-entry", path,
                  fmt::format("'{}' exports no '{}' in section '{}'", file, kEntrySymbol,
                              REVIEWER_ENTRY_SECTION));
  }

  boost::dll::shared_library lib;
  try {
    lib.load(fd_path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const std::exception& e) {
    return refuse("plugin-load-failed", path, fmt::format("cannot load '{}': {}", file, e.what()));
  }
  const auto* d = &lib.get<const reviewer_plugin_descriptor>(kEntrySymbol);
  loaded_libraries().push_back(std::move(lib));
  (void)fd.release();

  if (d->abi_version != REVIEWER_ABI_VERSION ||
      d->struct_size < sizeof(reviewer_plugin_descriptor)) {
    return refuse("plugin-abi-mismatch", path,
                  fmt::format("'{}' declares ABI version {}, expected {}", file, d->abi_version,
                              REVIEWER_ABI_VERSION));
  }
  if (d->create == nullptr || d->destroy == nullptr || d->plan == nullptr ||
      d->execute == nullptr) {
    return refuse("plugin-abi-mismatch", path,
                  fmt::format("'{}' lacks a required entry point", file));
  }
  std::string declared = d->name == nullptr ? "" : d->name;
  if (declared != stem) {
    return refuse("plugin-name-mismatch", path,
                  fmt::format("'{}' declares name '{}'; a plugin's name must equal its file stem "
                              "'{}'",
                              file, declared, stem));
  }
  auto claims = copy_claims(*d, path);
  if (!claims) {
    return claims.error();
  }
  auto rules = copy_rules(*d, path);
  if (!rules) {
    return rules.error();
  }
  return PluginLibrary{stem, path, d, std::move(*claims), std::move(*rules)};
}

}  // namespace reviewer::plugins

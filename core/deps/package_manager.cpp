// fetch_package_manager: the registry's version document for the tarball and its integrity, the
// tarball admitted by that integrity, corepack's hash checked too, and an index so a second
// review asks the registry nothing.
#include "core/deps/package_manager.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

#include "core/contract/view_layout.h"
#include "core/deps/download_dir_guard.h"
#include "core/deps/integrity.h"
#include "core/deps/package_source.h"
#include "core/deps/registry_integrity.h"
#include "core/deps/release_pick.h"
#include "core/deps/store_index.h"
#include "core/semver/range.h"
#include "core/semver/version.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

// A version document is a few KiB; this bounds a hostile registry's answer.
constexpr std::uint64_t kMaxDocumentBytes = 1 << 20;
// pnpm's whole metadata document is about 2 MiB (2026-12); a range is resolved from it.
constexpr std::uint64_t kMaxPackumentBytes = 64 << 20;

bool is_exact(const std::string& v) {
  static const std::regex kExact(
      R"((0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?)");
  return std::regex_match(v, kExact);
}

// corepack's `+ALGO.HEX` of packageManager: the algorithm and the lower-case hex it expects.
struct DeclaredHash {
  std::string algorithm;
  std::string hex;
};

std::string registry_package(const PackageManagerPin& pin) {
  return single_file_release(pin) ? "@yarnpkg/cli-dist" : pin.name;
}

util::Result<std::optional<DeclaredHash>> declared_hash(const PackageManagerPin& pin) {
  const std::size_t plus = pin.declared.find('+');
  if (plus == std::string::npos) {
    return std::optional<DeclaredHash>();
  }
  const std::string build = pin.declared.substr(plus + 1);
  const std::size_t dot = build.find('.');
  static const std::regex kHex("[0-9a-f]+");
  const std::string algorithm = build.substr(0, dot);
  const std::string hex = dot == std::string::npos ? "" : build.substr(dot + 1);
  const std::size_t want = algorithm == "sha512"   ? 128
                           : algorithm == "sha384" ? 96
                           : algorithm == "sha256" ? 64
                           : algorithm == "sha224" ? 56
                           : algorithm == "sha1"   ? 40
                                                   : 0;
  if (want == 0 || hex.size() != want || !std::regex_match(hex, kHex)) {
    return util::refusal("package-manager-hash-unsupported",
                         "package.json packageManager \"" + pin.declared + "\" carries '+" +
                             build.substr(0, 40) +
                             "'; corepack's form is +ALGO.HEX with ALGO one of sha1, sha224, "
                             "sha256, sha384, sha512 and HEX its lower-case digest of the tarball");
  }
  return std::optional<DeclaredHash>(DeclaredHash{algorithm, hex});
}

util::Refusal mismatch(const PackageManagerPin& pin, const DeclaredHash& want,
                       const std::string& got) {
  return util::Refusal{"package-manager-integrity-mismatch",
                       "package.json packageManager \"" + pin.declared + "\" pins the " +
                           want.algorithm + " of " + pin.name + "@" + pin.version +
                           "'s tarball, but the registry's tarball has " + want.algorithm + " " +
                           got +
                           " (corepack fails with \"Mismatch hashes\"); write the hash of "
                           "the release you mean, or remove it",
                       std::nullopt};
}

// Checks the stored tarball of `sha512` against packageManager's hash.
util::Status check_declared(const PackageManagerPin& pin, const std::optional<DeclaredHash>& want,
                            const Store& store, const std::string& sha512) {
  // The launcher checks yarn.js itself, where corepack keeps it
  // (deps/provision/corepack_cache_seed.h).
  if (!want || single_file_release(pin)) {
    return util::ok_status();
  }
  if (want->algorithm == "sha512") {
    return want->hex == sha512 ? util::ok_status() : util::Status(mismatch(pin, *want, sha512));
  }
  auto got = digest_file(store.root() + "/" + Store::relative_path(sha512), want->algorithm);
  if (!got) {
    return util::refusal(util::RefusalKind::kHost, "dependency-store",
                         "cannot hash the stored " + pin.name + " tarball");
  }
  return *got == want->hex ? util::ok_status() : util::Status(mismatch(pin, *want, *got));
}

util::Refusal invalid_metadata(const PackageManagerPin& pin, const std::string& url,
                               const std::string& why) {
  return util::Refusal{
      "package-manager-metadata-invalid",
      "the registry's document for " + pin.name + "@" + pin.version + " (" + url + ") " + why,
      std::nullopt};
}

// The registry's version document: the tarball URL it must name and its sha512.
util::Result<std::string> integrity_from_document(const PackageManagerPin& pin,
                                                  const std::string& file, const std::string& url,
                                                  const std::string& tarball_url) {
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  std::string sha512;
  const std::string problem =
      read_version_document(text, registry_package(pin), pin.version, tarball_url, sha512);
  if (!problem.empty()) {
    return invalid_metadata(pin, url, problem);
  }
  return sha512;
}

// The release a range names today: the package's metadata document, read by pnpm's rule.
util::Result<std::string> resolve_range(const PackageManagerPin& pin, const Store& store,
                                        Downloader& downloader, const FetchOptions& options) {
  auto range = semver::Range::parse(pin.version, {true, false});
  if (!range) {
    return util::refusal("package-manager-version-not-exact",
                         pin.what + " asks for " + pin.name + " '" + pin.version +
                             "', neither an exact X.Y.Z release nor a semver range (" +
                             range.error().message + ")");
  }
  auto dir = store.make_temp_dir();
  if (!dir) {
    return dir.refusals();
  }
  DownloadDirGuard guard{*dir};
  const std::string url = options.registry + pin.name;
  const std::string file = *dir + "/packument.json";
  auto got = downloader.download_document({url, file}, kMaxPackumentBytes);
  if (!got) {
    return got.refusals();
  }
  if (!*got) {
    return util::refusal("package-manager-version-missing",
                         pin.what + " asks for " + pin.name + " '" + pin.version + "', and " +
                             options.registry + " has no package " + pin.name + " (404 for " + url +
                             ")");
  }
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  return pick_release(text, pin.name, *range, pin.version, pin.what);
}

// What corepack's `installVersion` records in its cache for the tarball: the reference after
// `name@`, and the digest it checked, in packageManager's algorithm (sha512 when none is named).
FetchedPackageManager with_corepack_record(const PackageManagerPin& pin,
                                           const std::optional<DeclaredHash>& want,
                                           FetchedPackageManager out) {
  if (pin.corepack) {
    const std::size_t at = pin.declared.find('@');
    out.corepack_reference = at == std::string::npos ? pin.version : pin.declared.substr(at + 1);
    out.corepack_hash = want                       ? want->algorithm + "." + want->hex
                        : single_file_release(pin) ? "sha512"  // of yarn.js, taken in the sandbox
                                                   : "sha512." + out.sha512;
  }
  return out;
}

}  // namespace

bool single_file_release(const PackageManagerPin& pin) {
  auto v = semver::parse_version(pin.version);
  return pin.name == "yarn" && v && v->major >= 2;
}

std::string package_manager_view_path(const std::string& name, const std::string& version) {
  return std::string(contract::kPackageManagerDir) + "/" + name + "-" + version + ".tgz";
}

util::Result<FetchedPackageManager> fetch_package_manager(const PackageManagerPin& asked,
                                                          const Store& store,
                                                          Downloader& downloader,
                                                          const FetchOptions& options) {
  PackageManagerPin pin = asked;
  if (!is_exact(pin.version)) {
    auto picked = resolve_range(asked, store, downloader, options);
    if (!picked) {
      return picked.refusals();
    }
    pin.version = *picked;
    if (!is_exact(pin.version)) {
      return invalid_metadata(asked, options.registry + asked.name,
                              "picks \"" + pin.version + "\", not an X.Y.Z release");
    }
  }
  auto want = declared_hash(pin);
  if (!want) {
    return want.refusals();
  }
  FetchedPackageManager out{pin.name,
                            asked.version,
                            pin.version,
                            "",
                            package_manager_view_path(pin.name, pin.version),
                            false,
                            0};
  // The record of name@version's integrity for this registry.
  const std::string package = registry_package(pin);
  const std::string index = store_index_path(store, contract::kPackageManagerDir, options.registry,
                                             registry_url_name(package) + "@" + pin.version);
  if (auto known = read_store_index(index)) {
    if (auto size = store.size_of(*known)) {
      if (auto checked = check_declared(pin, *want, store, *known); !checked) {
        return checked.refusals();
      }
      out.sha512 = *known;
      out.hit = true;
      out.bytes = *size;
      return with_corepack_record(pin, *want, out);
    }
  }
  auto dir = store.make_temp_dir();
  if (!dir) {
    return dir.refusals();
  }
  DownloadDirGuard guard{*dir};
  const std::string doc_url = options.registry + registry_url_name(package) + "/" + pin.version;
  const std::string tarball_url = registry_tarball_of(options.registry, package, pin.version);
  auto got = downloader.download_document({doc_url, *dir + "/version.json"}, kMaxDocumentBytes);
  if (!got) {
    return got.refusals();
  }
  if (!*got) {
    return util::refusal("package-manager-version-missing",
                         pin.what + " asks for " + pin.name + " " + pin.version + ", which " +
                             options.registry + " does not have (404 for " + doc_url +
                             "); CI's install fails the same way");
  }
  auto sha512 = integrity_from_document(pin, *dir + "/version.json", doc_url, tarball_url);
  if (!sha512) {
    return sha512.refusals();
  }
  if (want && *want && (*want)->algorithm == "sha512" && (*want)->hex != *sha512 &&
      !single_file_release(pin)) {
    return mismatch(pin, **want, *sha512);  // before downloading anything more
  }
  if (!store.size_of(*sha512)) {
    const std::string file = *dir + "/tarball.tgz";
    if (auto fetched = downloader.download({{tarball_url, file}}, options.max_total_bytes);
        !fetched) {
      return fetched.refusals();
    }
    auto admitted =
        store.admit(file, *sha512, pin.name + "@" + pin.version + " (" + pin.what + ")");
    if (!admitted) {
      return admitted.refusals();
    }
  }
  if (auto checked = check_declared(pin, *want, store, *sha512); !checked) {
    return checked.refusals();
  }
  if (auto indexed = write_store_index(index, *sha512); !indexed) {
    return indexed.refusals();
  }
  out.sha512 = *sha512;
  out.bytes = store.size_of(*sha512).value_or(0);
  return with_corepack_record(pin, *want, out);
}

}  // namespace reviewer::deps

// corepack's cache for a job, seeded from the view's verified package-manager tarballs.
#include "core/deps/provision/corepack_cache_seed.h"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/contract/view_layout.h"
#include "core/deps/integrity.h"
#include "core/deps/provision/view_unpack.h"
#include "core/semver/version.h"

namespace reviewer::deps {
namespace {

// The bins corepack 0.35.0 records for a release (its config.json `ranges`: pnpm's entry files
// moved from .js to .cjs at 6 and to .mjs at 11; yarn 2 and later is one file, yarn.js, whose
// bins corepack lists by name).
std::optional<nlohmann::json> corepack_bins(const std::string& name,
                                            const semver::Version& version) {
  if (name == "pnpm") {
    const char* ext = version.major < 6 ? "js" : version.major < 11 ? "cjs" : "mjs";
    return nlohmann::json{{"pnpm", std::string("./bin/pnpm.") + ext},
                          {"pnpx", std::string("./bin/pnpx.") + ext}};
  }
  if (name == "yarn" && version.major < 2) {
    return nlohmann::json{{"yarn", "./bin/yarn.js"}, {"yarnpkg", "./bin/yarn.js"}};
  }
  if (name == "yarn") {
    return nlohmann::json::array({"yarn", "yarnpkg"});
  }
  return std::nullopt;
}

// "sha512.<hex>": an algorithm corepack knows and a lower-case hex digest; the algorithm alone
// when `bare` (the digest is the launcher's to take).
bool is_hash(const std::string& h, bool bare) {
  const auto dot = h.find('.');
  if (bare && dot == std::string::npos) {
    return h == "sha1" || h == "sha224" || h == "sha256" || h == "sha384" || h == "sha512";
  }
  if (dot == std::string::npos || dot + 1 == h.size()) {
    return false;
  }
  const std::string algo = h.substr(0, dot);
  if (algo != "sha1" && algo != "sha224" && algo != "sha256" && algo != "sha384" &&
      algo != "sha512") {
    return false;
  }
  return h.find_first_not_of("0123456789abcdef", dot + 1) == std::string::npos;
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, '\t');) {
    out.push_back(f);
  }
  return out;
}

// yarn 2 and later: corepack downloads bin/yarn.js of @yarnpkg/cli-dist and keeps it as
// `<folder>/yarn.js`, the file it runs, after checking packageManager's hash of it ("Mismatch
// hashes" otherwise). The same here, from the host's verified tarball: the hash corepack records,
// or the error that names the mismatch.
util::Result<std::string> single_file(const std::string& folder, const std::string& what,
                                      const std::string& hash) {
  const std::string file = folder + "/yarn.js";
  if (::rename((folder + "/bin/yarn.js").c_str(), file.c_str()) != 0) {
    return unpack_error(what + " holds no bin/yarn.js; corepack's cache does not get it");
  }
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return unpack_error(what + "'s bin/yarn.js is not a file; corepack's cache does not get it");
  }
  const std::string algorithm = hash.substr(0, hash.find('.'));
  auto digest = deps::digest_file(file, algorithm);
  if (!digest) {
    return unpack_error("cannot hash " + what + "'s yarn.js: " + digest.error().message);
  }
  const std::size_t dot = hash.find('.');
  if (dot != std::string::npos && hash.substr(dot + 1) != *digest) {
    return unpack_error("package.json packageManager pins the " + algorithm + " of " + what +
                        "'s yarn.js as " + hash.substr(dot + 1) +
                        ", but the registry's release "
                        "has " +
                        *digest + " (corepack fails with \"Mismatch hashes\")");
  }
  return algorithm + "." + *digest;
}

// One line of the list, unpacked into corepack's install folder with its `.corepack` record.
util::Result<std::string> seed_one(const std::string& view, const std::string& home,
                                   const std::string& line) {
  const auto f = fields(line);
  const auto bad = [&] {
    return unpack_error("the line \"" + line.substr(0, 200) + "\" of " + contract::kCorepackList +
                        " is not a name, version, reference, tarball path and hash");
  };
  if (f.size() != 5) {
    return bad();
  }
  const std::string &name = f[0], &version = f[1], &reference = f[2], &tarball = f[3], &hash = f[4];
  auto parsed = semver::parse_version(version);
  if (!parsed || parsed->to_string() != version || !plain_relative(version) ||
      !plain_relative(tarball) || !plain_relative(reference) ||
      reference.substr(0, reference.find('+')) != version) {
    return bad();
  }
  auto bins = corepack_bins(name, *parsed);
  if (!bins || !is_hash(hash, bins->is_array())) {
    return bad();
  }
  const std::string folder = home + "/v1/" + name + "/" + version;
  const std::string what = name + "@" + version;
  if (auto unpacked = unpack_package(view + "/" + tarball, folder, what + " (corepack's cache)");
      !unpacked) {
    return unpacked.refusals();
  }
  std::string recorded = hash;
  if (bins->is_array()) {
    auto file = single_file(folder, what, hash);
    if (!file) {
      return file.refusals();
    }
    recorded = *file;
  }
  for (const auto& [bin, file] : bins->items()) {
    struct stat st {};
    if (!bins->is_array() && (::lstat((folder + "/" + file.get<std::string>()).c_str(), &st) != 0 ||
                              !S_ISREG(st.st_mode))) {
      return unpack_error(what + " holds no " + file.get<std::string>().substr(2) +
                          "; corepack's cache does not get it");
    }
  }
  // What corepack's installVersion writes once its download checked out.
  const nlohmann::json record{
      {"locator", {{"name", name}, {"reference", reference}}}, {"bin", *bins}, {"hash", recorded}};
  std::ofstream out(folder + "/.corepack", std::ios::trunc);
  out << record.dump();
  if (!out.flush()) {
    return unpack_error("cannot write " + folder + "/.corepack");
  }
  return what;
}

}  // namespace

util::Result<std::vector<std::string>> seed_corepack_cache(const std::string& view,
                                                           const std::string& home) {
  auto list = read_view_list(view, contract::kCorepackList, 1u << 20);
  if (!list) {
    return list.refusals();
  }
  std::vector<std::string> seeded;
  std::istringstream lines(*list);
  for (std::string line; std::getline(lines, line);) {
    auto one = seed_one(view, home, line);
    if (!one) {
      return one.refusals();
    }
    seeded.push_back(*one);
  }
  return seeded;
}

}  // namespace reviewer::deps

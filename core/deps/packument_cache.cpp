#include "core/deps/packument_cache.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "core/deps/integrity.h"
#include "core/deps/package_source.h"
#include "core/deps/store.h"
#include "core/util/unique_fd.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kKeyPrefix = "make-fetch-happen:request-cache:";

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

}  // namespace

util::Result<Packument> served_packument(const ServedMetadata& served,
                                         const std::string& registry) {
  auto sha512 = sha512_file(served.file);
  struct stat st {};
  if (!sha512 || ::lstat(served.file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return util::refusal(
        util::RefusalKind::kHost, "dependency-store",
        "cannot read the registry metadata of " + served.name + " the host served");
  }
  const std::string url = registry + served.name;
  // Field for field what make-fetch-happen writes for a document it cached (npm 11): no `vary`,
  // so the review's npm finds it whatever it asks the document with.
  const nlohmann::json line{{"key", std::string(kKeyPrefix) + url},
                            {"integrity", integrity_of_hex(*sha512)},
                            {"time", served.time_ms},
                            {"size", static_cast<std::uint64_t>(st.st_size)},
                            {"metadata",
                             {{"time", served.time_ms},
                              {"url", url},
                              {"reqHeaders", {{"accept", served.accept}}},
                              {"resHeaders", {{"content-type", served.content_type}}},
                              {"options", {{"compress", true}}}}}};
  Packument p;
  p.name = served.name;
  p.key = std::string(kKeyPrefix) + url;
  p.line = line.dump();
  p.hash = hex_digest(EVP_sha1(), p.line);
  p.sha512 = *sha512;
  p.content = served.file;
  return p;
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
    // A copy, never a link: the store's files are its own.
    const std::string copy = temp + "/" + p.sha512;
    std::error_code ec;
    struct stat st {};
    if (::lstat(p.content.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        !fs::copy_file(p.content, copy, fs::copy_options::overwrite_existing, ec)) {
      fs::remove_all(temp, ec);
      return util::refusal(util::RefusalKind::kHost, "dependency-store",
                           "cannot copy the metadata of " + p.name);
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
      return util::refusal(util::RefusalKind::kHost, "dependency-store",
                           "cannot write the metadata index " + file.string());
    }
  }
  return util::ok_status();
}

}  // namespace reviewer::deps

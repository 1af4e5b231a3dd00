#include "core/deps/integrity.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <memory>
#include <sstream>

#include "core/util/unique_fd.h"

namespace reviewer::deps {
namespace {

constexpr std::size_t kSha512Bytes = 64;
constexpr std::size_t kSha512Base64 = 88;  // 64 bytes: 86 characters and "=="

std::string hex(const unsigned char* bytes, std::size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (std::size_t i = 0; i < n; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 0xf];
  }
  return out;
}

bool base64_text(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isalnum(c) != 0 || c == '+' || c == '/' || c == '=';
  });
}

}  // namespace

util::Result<std::string> sha512_of_integrity(std::string_view integrity, const std::string& what) {
  std::istringstream words{std::string(integrity)};
  for (std::string word; words >> word;) {
    if (word.rfind("sha512-", 0) != 0) {
      continue;
    }
    // SRI allows "?options" after the hash; npm never writes them.
    std::string_view b64 = std::string_view(word).substr(7);
    if (b64.size() != kSha512Base64 || !b64.ends_with("==") || !base64_text(b64)) {
      break;
    }
    std::array<unsigned char, kSha512Base64> raw{};
    const int n = EVP_DecodeBlock(raw.data(), reinterpret_cast<const unsigned char*>(b64.data()),
                                  static_cast<int>(b64.size()));
    if (n != static_cast<int>(kSha512Bytes) + 2) {  // the two padding bytes are counted
      break;
    }
    return hex(raw.data(), kSha512Bytes);
  }
  return util::refusal("dependency-integrity-missing",
                       what +
                           (integrity.empty() ? std::string(" has no integrity")
                                              : " has no well-formed sha512 integrity (it has \"" +
                                                    std::string(integrity.substr(0, 40)) + "\")") +
                           "; accepted: `sha512-<base64>`, which npm 5 and later record for "
                           "every registry tarball; an update keeps the integrity an entry "
                           "already has, so delete the lock file and install again");
}

util::Result<std::string> sha512_file(const std::string& path) {
  return digest_file(path, "sha512");
}

util::Result<std::string> digest_file(const std::string& path, std::string_view algorithm) {
  const EVP_MD* md_type = algorithm == "sha512"   ? EVP_sha512()
                          : algorithm == "sha384" ? EVP_sha384()
                          : algorithm == "sha256" ? EVP_sha256()
                          : algorithm == "sha224" ? EVP_sha224()
                          : algorithm == "sha1"   ? EVP_sha1()
                                                  : nullptr;
  if (md_type == nullptr) {
    return util::refusal("invalid-version", "no digest named " + std::string(algorithm));
  }
  util::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid()) {
    return util::refusal("io-error", "cannot open " + path);
  }
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), md_type, nullptr) != 1) {
    return util::refusal("io-error", "cannot start a digest");
  }
  std::array<unsigned char, 1 << 16> buf{};
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return util::refusal("io-error", "cannot read " + path);
    }
    if (n == 0) {
      break;
    }
    EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<std::size_t>(n));
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx.get(), md.data(), &len);
  return hex(md.data(), len);
}

std::string integrity_of_hex(const std::string& hex_digest) {
  std::array<unsigned char, kSha512Bytes> raw{};
  for (std::size_t i = 0; i < raw.size() && 2 * i + 1 < hex_digest.size(); ++i) {
    raw[i] = static_cast<unsigned char>(std::stoi(hex_digest.substr(2 * i, 2), nullptr, 16));
  }
  std::array<unsigned char, kSha512Base64 + 1> out{};
  EVP_EncodeBlock(out.data(), raw.data(), static_cast<int>(raw.size()));
  return "sha512-" + std::string(reinterpret_cast<const char*>(out.data()), kSha512Base64);
}

}  // namespace reviewer::deps

#include "core/util/sha256.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>

#include "core/util/unique_fd.h"

namespace reviewer::util {
namespace {

struct DigestDeleter {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using Digest = std::unique_ptr<EVP_MD_CTX, DigestDeleter>;

std::string to_hex(const unsigned char* bytes, unsigned int n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (unsigned int i = 0; i < n; ++i) {
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 0xf]);
  }
  return out;
}

std::string finish(EVP_MD_CTX* ctx) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int n = 0;
  REVIEWER_CHECK(EVP_DigestFinal_ex(ctx, md.data(), &n) == 1);
  return to_hex(md.data(), n);
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  Digest ctx(EVP_MD_CTX_new());
  REVIEWER_CHECK(ctx && EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) == 1);
  REVIEWER_CHECK(EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) == 1);
  return finish(ctx.get());
}

Result<std::string> sha256_file(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid()) {
    return refusal("io-error", "cannot open '" + path + "': " + std::strerror(errno));
  }
  return sha256_fd(fd.get(), path);
}

Result<std::string> sha256_fd(int fd, const std::string& name_for_errors) {
  Digest ctx(EVP_MD_CTX_new());
  REVIEWER_CHECK(ctx && EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) == 1);
  std::array<char, 65536> buf{};
  off_t offset = 0;
  for (;;) {
    ssize_t n = ::pread(fd, buf.data(), buf.size(), offset);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return refusal("io-error", "cannot read '" + name_for_errors + "': " + std::strerror(errno));
    }
    if (n == 0) {
      break;
    }
    offset += n;
    REVIEWER_CHECK(EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<size_t>(n)) == 1);
  }
  return finish(ctx.get());
}

}  // namespace reviewer::util

#include "core/util/crypto_init.h"

#include <openssl/crypto.h>

#include "core/util/check.h"

namespace reviewer::util {

void init_crypto() {
  REVIEWER_CHECK(OPENSSL_init_crypto(OPENSSL_INIT_NO_ADD_ALL_CIPHERS |
                                         OPENSSL_INIT_NO_ADD_ALL_DIGESTS |
                                         OPENSSL_INIT_NO_LOAD_CONFIG,
                                     nullptr) == 1);
}

}  // namespace reviewer::util

#include "core/deps/download_meter.h"

namespace reviewer::deps {

bool DownloadMeter::take(std::uint64_t n) {
  std::uint64_t now = written_.load();
  do {
    if (n > bound_ - now) {
      return false;
    }
  } while (!written_.compare_exchange_weak(now, now + n));
  return true;
}

util::Refusal DownloadMeter::refusal(const std::string& url) const {
  return util::refusal(util::RefusalKind::kBound, "dependency-too-large",
                       "the review's downloads wrote " + std::to_string(written_.load()) +
                           " bytes and " + url + " had more to come, over the " +
                           std::to_string(bound_) +
                           "-byte bound on what one review writes to the host's disk "
                           "(--max-dependency-bytes); the transfers under way were stopped and "
                           "their files removed");
}

}  // namespace reviewer::deps

#include "core/fetch/download_meter.h"

namespace reviewer::fetch {

bool DownloadMeter::take(std::uint64_t n) {
  if (n > bound_ - written_) {
    return false;
  }
  written_ += n;
  return true;
}

util::Refusal DownloadMeter::refusal(const std::string& url) const {
  return util::refusal("dependency-too-large",
                       "the review's downloads wrote " + std::to_string(written_) + " bytes and " +
                           url + " had more to come, over the " + std::to_string(bound_) +
                           "-byte bound on what one review writes to the host's disk "
                           "(--max-dependency-bytes); the transfers under way were stopped and "
                           "their files removed");
}

}  // namespace reviewer::fetch

#pragma once

#include <memory>

#include "core/fetch/downloader.h"

namespace reviewer::host {

// Downloads registry tarballs with the host's curl: one process for a whole batch (up to eight
// transfers at a time), https only with no redirect followed, no ~/.curlrc and no netrc (no
// credential of the host is sent), each transfer bounded in size. Nothing of the pull request
// runs: the URLs were checked to be tarballs of the configured registry, and the store verifies
// every byte against the lock's integrity.
std::unique_ptr<fetch::Downloader> make_curl_downloader();

}  // namespace reviewer::host

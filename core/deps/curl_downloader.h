#pragma once

#include <memory>

#include "core/deps/download_meter.h"
#include "core/deps/downloader.h"

namespace reviewer::deps {

// Downloads registry tarballs with the host's curl: one process for up to 128 transfers (eight
// at a time), https only with no redirect followed, no ~/.curlrc and no netrc (no credential of
// the host is sent). Nothing of the pull request runs: the URLs were checked to be tarballs of
// the configured registry, and the store verifies every byte against the lock's integrity.
// curl writes each body into a FIFO, never to disk: the host reads it, counts it against the
// call's bound for one file and against `meter` (the review's bound on what all its downloads
// write, every call together), and writes it; the moment either would be passed, curl is
// killed, the call's files are removed and the refusal is `dependency-too-large`. So a review
// writes at most the meter's bound to disk, whatever Content-Length the registry sends or omits.
// Without a meter, only each call's bound applies.
std::unique_ptr<deps::Downloader> make_curl_downloader(
    std::shared_ptr<deps::DownloadMeter> meter = nullptr);

// The same, also over plain http: for tests, which serve on 127.0.0.1 without TLS.
std::unique_ptr<deps::Downloader> make_curl_downloader_for_test(
    std::shared_ptr<deps::DownloadMeter> meter);

}  // namespace reviewer::deps

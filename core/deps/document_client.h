#pragma once

#include <memory>

#include "core/deps/download_meter.h"
#include "core/deps/downloader.h"

// Registry documents fetched one at a time as a resolution asks for them, over connections kept
// open between requests (libcurl, in this process). The resolution's registry
// (resolution_registry.h) answers npm's requests as they come, and npm walks its tree mostly one
// request after another: a new TLS connection for each (the curl program) made a 481-document
// resolution take 91 s against npm's own 37 s. As the host's curl downloads do: https only (or
// http for tests), no redirect followed, no proxy or netrc of the host's, the registry's
// certificate checked; each body counted as it arrives against its own bound and the review's
// meter, and written only then, so nothing past either reaches the disk. Safe to call from
// several threads at once.
namespace reviewer::deps {

// `meter` is the review's (deps::DownloadMeter); every call's bytes count against it.
std::unique_ptr<deps::Downloader> make_document_client(std::shared_ptr<deps::DownloadMeter> meter);

// The same, also over plain http: for tests, which serve on 127.0.0.1 without TLS.
std::unique_ptr<deps::Downloader> make_document_client_for_test(
    std::shared_ptr<deps::DownloadMeter> meter);

}  // namespace reviewer::deps

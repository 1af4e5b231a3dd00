#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "core/util/refusal.h"

namespace reviewer::deps {

// What one review's downloads have written to the host's disk, every transfer of every batch
// together, against the review's bound (--max-dependency-bytes). A bound applied per transfer,
// or summed after a batch, lets a lock that names one URL many times, or a registry that answers
// without a Content-Length, write far past it: the meter is asked before each write instead.
// One per review, shared by each downloader the review makes; written bytes are never given
// back, so a transfer retried, or a file discarded, still counts. Safe to share between threads:
// the resolution's registry downloads for several connections at once.
class DownloadMeter {
 public:
  explicit DownloadMeter(std::uint64_t bound) : bound_(bound) {}

  std::uint64_t bound() const { return bound_; }
  std::uint64_t written() const { return written_.load(); }
  // Counts `n` more bytes about to be written: false, counting nothing, when they would take the
  // review past its bound (the caller then writes none of them).
  bool take(std::uint64_t n);
  // The refusal `dependency-too-large` for the transfer of `url` stopped at the bound: the bound
  // and what was written.
  util::Refusal refusal(const std::string& url) const;

 private:
  std::uint64_t bound_;
  std::atomic<std::uint64_t> written_ = 0;
};

}  // namespace reviewer::deps

#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/deps/download_meter.h"
#include "core/deps/downloader.h"
#include "core/util/result.h"

namespace reviewer::deps {

// How one curl run ended.
struct CurlRun {
  int status = 0;          // curl's exit status, 128 + the signal that ended it
  bool timed_out = false;  // it ran past its limit and was killed
  // Set when the host stopped curl because a body passed a bound: which transfer, and whether
  // the bound was the one of each file (`max_bytes_each`) or the review's (the meter's).
  enum class Stop { kNone, kFileBound, kReviewBound } stop = Stop::kNone;
  std::string stopped_url = {};
};

// Runs curl (`argv`: "curl" and its options) over `items`, writing `config` with each item's
// URL and, as its output, a FIFO beside the item's file: curl never writes a body to disk. The
// host reads every FIFO as curl fills it, counts each read against `max_bytes_each` for its item
// and against `meter`, and only then writes it to the item's file. The moment either bound would
// be passed, nothing more is written: curl's process group is killed and every file of `items`
// is removed (stop says why). So what the run adds to disk is at most what the meter had left,
// whatever the server declares. An item's file exists after the run when curl opened its output
// (a body, or an empty answer), as with curl's own --output; not for a transfer it refused
// (--fail). curl's stdout goes to `stdout_file`, its stderr to the host's; past `limit` curl is
// killed (timed_out). Error `dependency-store` when a FIFO or a file cannot be made or written,
// `host-command` when curl cannot be started.
util::Result<CurlRun> run_metered_curl(const std::vector<std::string>& argv,
                                       const std::vector<deps::Download>& items,
                                       const std::string& config, const std::string& stdout_file,
                                       std::uint64_t max_bytes_each, deps::DownloadMeter& meter,
                                       std::chrono::milliseconds limit);

}  // namespace reviewer::deps

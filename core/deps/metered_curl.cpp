#include "core/deps/metered_curl.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/exec/host_process.h"
#include "core/util/unique_fd.h"

namespace reviewer::deps {
namespace {

// One item's body on its way: the FIFO curl writes, the file the host writes.
struct Body {
  const deps::Download* item = nullptr;
  std::string fifo;
  bool fifo_made = false;
  util::UniqueFd in;   // the FIFO's read end, until curl closed its end
  util::UniqueFd out;  // the item's file, from curl's first byte (or its empty answer)
  bool created = false;
  std::uint64_t bytes = 0;
};

util::Refusal store_error(const std::string& what, const std::string& path) {
  return util::refusal(util::RefusalKind::kHost, "dependency-store",
                       "cannot " + what + " " + path + ": " + std::strerror(errno));
}

// The FIFOs are removed whatever happens: curl is gone by then, so none can be opened again
// (a path left free would let a late open create a regular file there).
struct FifoRemoval {
  std::vector<Body>& bodies;
  ~FifoRemoval() {
    for (const auto& b : bodies) {
      if (b.fifo_made) {
        ::unlink(b.fifo.c_str());
      }
    }
  }
};

enum class Pumped { kMore, kDone, kStopped };

// Moves what `b`'s FIFO holds now into its file, counting each read against both bounds before
// a byte of it is written. Called only once the FIFO has had a writer: before that, a read of
// an empty FIFO reads as its end.
util::Result<Pumped> pump(Body& b, std::uint64_t max_bytes_each, deps::DownloadMeter& meter,
                          CurlRun& run) {
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(b.in.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0 && errno == EAGAIN) {
      return Pumped::kMore;
    }
    if (n < 0) {
      return store_error("read", b.fifo);
    }
    const auto size = static_cast<std::uint64_t>(n);
    if (size > 0 && size > max_bytes_each - b.bytes) {
      run.stop = CurlRun::Stop::kFileBound;
    } else if (!meter.take(size)) {
      run.stop = CurlRun::Stop::kReviewBound;
    }
    if (run.stop != CurlRun::Stop::kNone) {
      run.stopped_url = b.item->url;
      return Pumped::kStopped;
    }
    if (!b.out.valid()) {
      b.out = util::UniqueFd(
          ::open(b.item->file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
      if (!b.out.valid()) {
        return store_error("write", b.item->file);
      }
      b.created = true;
    }
    if (n == 0) {
      b.in.reset();
      b.out.reset();
      return Pumped::kDone;
    }
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(b.out.get(), buf + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) {
        continue;
      }
      if (w <= 0) {
        return store_error("write", b.item->file);
      }
      done += w;
    }
    b.bytes += size;
  }
}

// Makes each item's FIFO and opens its reading end (before curl starts, so curl's open for
// writing never waits for a reader), and writes curl's config naming them.
util::Status make_fifos(std::vector<Body>& bodies, const std::vector<deps::Download>& items,
                        const std::string& config) {
  // URLs and file names go through a config file: thousands of them would not fit argv, and
  // both were checked to hold no quote or space.
  std::ofstream list(config, std::ios::trunc);
  for (std::size_t i = 0; i < items.size(); ++i) {
    Body& b = bodies[i];
    b.item = &items[i];
    b.fifo = items[i].file + ".fifo";
    if (::mkfifo(b.fifo.c_str(), 0600) != 0) {
      return store_error("make the FIFO", b.fifo);
    }
    b.fifo_made = true;
    b.in = util::UniqueFd(::open(b.fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (!b.in.valid()) {
      return store_error("open the FIFO", b.fifo);
    }
    list << "url = \"" << items[i].url << "\"\noutput = \"" << b.fifo << "\"\n";
  }
  list.close();
  if (!list) {
    return util::refusal(util::RefusalKind::kHost, "dependency-store", "cannot write " + config);
  }
  return util::ok_status();
}

// curl over `config`, its stdout (the transfers' status lines) into `stdout_file`.
util::Result<exec::Child> start_curl(const std::vector<std::string>& argv,
                                     const std::string& config, const std::string& stdout_file) {
  util::UniqueFd status(
      ::open(stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!status.valid()) {
    return store_error("write", stdout_file);
  }
  std::vector<std::string> command = argv;
  command.insert(command.end(), {"--config", config});
  return exec::start_command(command, status.get(), false);
}

// One curl run's bodies as they arrive, each metered as it is written.
struct Transfer {
  std::vector<Body>& bodies;
  std::uint64_t max_bytes_each;
  deps::DownloadMeter& meter;
  CurlRun run;
  util::Refusals failed;

  // Reads whatever a FIFO that has had a writer holds; false once curl must be stopped.
  bool drain(Body& b) {
    auto pumped = pump(b, max_bytes_each, meter, run);
    if (!pumped) {
      failed = pumped.refusals();
    }
    return pumped && *pumped != Pumped::kStopped;
  }

  // Drains the FIFOs until curl exits (true), a bound or a failure stops it, or `deadline`.
  bool watch(exec::Child& curl, std::chrono::steady_clock::time_point deadline) {
    for (bool going = true; going;) {
      std::vector<pollfd> fds;
      std::vector<Body*> of;
      for (auto& b : bodies) {
        if (b.in.valid()) {
          fds.push_back({b.in.get(), POLLIN, 0});
          of.push_back(&b);
        }
      }
      if (::poll(fds.data(), fds.size(), 20) > 0) {
        for (std::size_t i = 0; i < fds.size() && going; ++i) {
          going = fds[i].revents == 0 || drain(*of[i]);
        }
      }
      if (curl.poll()) {
        run.status = curl.exit_status()->shell_status();
        return true;
      }
      if (going && std::chrono::steady_clock::now() >= deadline) {
        run.timed_out = true;
        going = false;
      }
    }
    return false;
  }

  // curl is gone: what is left in a FIFO it opened is the end of that body. One it never opened
  // shows no event and gets no file.
  void drain_rest() {
    for (auto& b : bodies) {
      if (!b.in.valid()) {
        continue;
      }
      pollfd p{b.in.get(), POLLIN, 0};
      if (::poll(&p, 1, 0) > 0 && !drain(b)) {
        break;
      }
    }
  }

  // A stopped or failed run leaves no file of its own behind.
  void remove_files_if_cut_short() {
    if (run.stop == CurlRun::Stop::kNone && failed.empty()) {
      return;
    }
    for (auto& b : bodies) {
      b.out.reset();
      if (b.created) {
        ::unlink(b.item->file.c_str());
      }
    }
  }
};

}  // namespace

util::Result<CurlRun> run_metered_curl(const std::vector<std::string>& argv,
                                       const std::vector<deps::Download>& items,
                                       const std::string& config, const std::string& stdout_file,
                                       std::uint64_t max_bytes_each, deps::DownloadMeter& meter,
                                       std::chrono::milliseconds limit) {
  std::vector<Body> bodies(items.size());
  FifoRemoval removal{bodies};
  if (auto made = make_fifos(bodies, items, config); !made) {
    return made.refusals();
  }
  auto curl = start_curl(argv, config, stdout_file);
  if (!curl) {
    return curl.refusals();
  }
  Transfer transfer{bodies, max_bytes_each, meter, {}, {}};
  const bool exited = transfer.watch(*curl, std::chrono::steady_clock::now() + limit);
  if (!exited) {
    transfer.run.status = curl->terminate(std::chrono::milliseconds(0)).shell_status();
  } else if (transfer.run.stop == CurlRun::Stop::kNone && transfer.failed.empty()) {
    transfer.drain_rest();
  }
  transfer.remove_files_if_cut_short();
  if (!transfer.failed.empty()) {
    return transfer.failed;
  }
  return transfer.run;
}

}  // namespace reviewer::deps

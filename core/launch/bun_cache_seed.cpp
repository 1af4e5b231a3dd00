// seed_bun_cache: the job's Bun cache, unpacked from the view's verified tarballs.
#include "core/launch/bun_cache_seed.h"

#include <fcntl.h>

#include <filesystem>
#include <sstream>

#include "core/exec/capture.h"
#include "core/fetch/mount.h"
#include "core/util/file_read.h"

namespace reviewer::launch {
namespace {

namespace fs = std::filesystem;

util::Refusal unpack_error(const std::string& what) {
  return util::refusal("dependency-unpack", what);
}

// The host wrote the list, but it names paths joined to directories here: plain relative paths
// of the characters package names, versions and the store use, never `..`.
bool plain_relative(const std::string& p) {
  if (p.empty() || p[0] == '/' || p.find("..") != std::string::npos) {
    return false;
  }
  for (unsigned char c : p) {
    if (std::isalnum(c) == 0 && c != '/' && c != '@' && c != '.' && c != '-' && c != '_' &&
        c != '+' && c != '~') {
      return false;
    }
  }
  return true;
}

}  // namespace

util::Status seed_bun_cache(const std::string& view, const std::string& cache_dir) {
  util::ReadLimits limits;
  limits.max_bytes = 64u << 20;
  auto list = util::read_regular_file(AT_FDCWD, view + "/" + fetch::kBunList, limits);
  if (!list) {
    return list.error().rule == util::kFileMissing
               ? util::ok_status()
               : unpack_error(std::string(fetch::kBunList) + ": " + list.error().message);
  }
  std::istringstream lines(*list);
  std::string line;
  while (std::getline(lines, line)) {
    const auto tab = line.find('\t');
    const std::string folder = line.substr(0, tab);
    const std::string tarball = tab == std::string::npos ? "" : line.substr(tab + 1);
    if (!plain_relative(folder) || !plain_relative(tarball)) {
      return unpack_error("the line \"" + line + "\" of " + fetch::kBunList +
                          " is not a folder and a tarball path");
    }
    const std::string into = cache_dir + "/" + folder;
    std::error_code ec;
    fs::create_directories(into, ec);
    if (ec) {
      return unpack_error("cannot make " + into + ": " + ec.message());
    }
    // npm tarballs hold one top folder (usually `package/`); Bun's cache folder is its content.
    auto ran =
        exec::capture_output({"/bin/tar", "-xzf", view + "/" + tarball, "-C", into,
                              "--strip-components=1", "--no-same-owner", "--no-same-permissions"},
                             {"PATH=/usr/bin:/bin", "LANG=C.UTF-8"});
    if (!ran) {
      return unpack_error("cannot unpack " + folder + " into Bun's cache: " + ran.error().message);
    }
  }
  return util::ok_status();
}

}  // namespace reviewer::launch

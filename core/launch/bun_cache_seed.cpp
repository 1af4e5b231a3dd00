// seed_bun_cache: the job's Bun cache, unpacked from the view's verified tarballs.
#include "core/launch/bun_cache_seed.h"

#include <fcntl.h>

#include <sstream>

#include "core/fetch/mount.h"
#include "core/launch/view_unpack.h"
#include "core/util/file_read.h"

namespace reviewer::launch {
namespace {

util::Refusal unpack_error(const std::string& what) {
  return util::refusal("dependency-unpack", what);
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
    // Bun's cache folder is the tarball's content, without its top folder.
    if (auto unpacked = unpack_package(view + "/" + tarball, cache_dir + "/" + folder,
                                       folder + " (Bun's cache)");
        !unpacked) {
      return unpacked;
    }
  }
  return util::ok_status();
}

}  // namespace reviewer::launch

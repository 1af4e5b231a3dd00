// seed_bun_cache: the job's Bun cache, unpacked from the view's verified tarballs.
#include "core/deps/provision/bun_cache_seed.h"

#include <sstream>

#include "core/contract/view_layout.h"
#include "core/deps/provision/view_unpack.h"

namespace reviewer::deps {

util::Status seed_bun_cache(const std::string& view, const std::string& cache_dir) {
  auto list = read_view_list(view, contract::kBunList, 64u << 20);
  if (!list) {
    return list.refusals();
  }
  std::istringstream lines(*list);
  std::string line;
  while (std::getline(lines, line)) {
    const auto tab = line.find('\t');
    const std::string folder = line.substr(0, tab);
    const std::string tarball = tab == std::string::npos ? "" : line.substr(tab + 1);
    if (!plain_relative(folder) || !plain_relative(tarball)) {
      return unpack_error("the line \"" + line + "\" of " + contract::kBunList +
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

}  // namespace reviewer::deps

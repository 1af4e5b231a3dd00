// make_global_prefix: a job's writable npm global prefix, with the image's corepack in it.
#include "core/deps/provision/global_prefix.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

util::Refusal setup_error(const std::string& what) { return util::refusal("corepack-setup", what); }

util::Status link(const std::string& target, const std::string& at) {
  if (::symlink(target.c_str(), at.c_str()) != 0) {
    return setup_error("cannot link " + at + " to " + target + ": " + std::strerror(errno));
  }
  return util::ok_status();
}

}  // namespace

util::Result<std::string> make_global_prefix(const std::string& prefix,
                                             const std::string& corepack_cjs) {
  std::error_code ec;
  fs::create_directories(prefix + "/lib/node_modules", ec);
  if (!ec) {
    fs::create_directories(prefix + "/bin", ec);
  }
  if (ec) {
    return setup_error("cannot make " + prefix + ": " + ec.message());
  }
  if (!corepack_cjs.empty()) {
    // The package folder: dist/lib/corepack.cjs is two folders down.
    const std::string package = fs::path(corepack_cjs).parent_path().parent_path().parent_path();
    // A folder of links to the package's entries, not one link to it: `npm install -g corepack`
    // renames the installed package's real folder out of the way, which in the image is
    // read-only. (A copy would do too, at 1.5-2 ms a job; the links cost 0.04 ms.)
    const std::string folder = prefix + "/lib/node_modules/corepack";
    fs::create_directory(folder, ec);
    for (auto it = fs::directory_iterator(package, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
      if (auto made = link(it->path().string(), folder + "/" + it->path().filename().string());
          !made) {
        return made.refusals();
      }
    }
    if (ec) {
      return setup_error("cannot list " + package + " into " + folder + ": " + ec.message());
    }
    if (auto made = link("../lib/node_modules/corepack/dist/corepack.js", prefix + "/bin/corepack");
        !made) {
      return made.refusals();
    }
  }
  return prefix + "/bin";
}

}  // namespace reviewer::deps

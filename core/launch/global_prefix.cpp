// make_global_prefix: a job's writable npm global prefix, with the image's corepack in it.
#include "core/launch/global_prefix.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace reviewer::launch {
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
    // A copy, not a link: `npm install -g corepack` renames the installed package's real folder
    // out of the way, which in the image is read-only.
    fs::copy(package, prefix + "/lib/node_modules/corepack", fs::copy_options::recursive, ec);
    if (ec) {
      return setup_error("cannot copy " + package + " into " + prefix + ": " + ec.message());
    }
    if (auto made = link("../lib/node_modules/corepack/dist/corepack.js", prefix + "/bin/corepack");
        !made) {
      return made.refusals();
    }
  }
  return prefix + "/bin";
}

}  // namespace reviewer::launch

// Paths from the view's lists, and npm tarballs unpacked from the view into a job's scratch.
#include "core/launch/view_unpack.h"

#include <cctype>
#include <filesystem>

#include "core/exec/capture.h"

namespace reviewer::launch {

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

util::Status unpack_package(const std::string& tarball, const std::string& into,
                            const std::string& what) {
  std::error_code ec;
  std::filesystem::create_directories(into, ec);
  if (ec) {
    return util::refusal("dependency-unpack", "cannot make " + into + ": " + ec.message());
  }
  auto ran = exec::capture_output({"/bin/tar", "-xzf", tarball, "-C", into, "--strip-components=1",
                                   "--no-same-owner", "--no-same-permissions"},
                                  {"PATH=/usr/bin:/bin", "LANG=C.UTF-8"});
  if (!ran) {
    return util::refusal("dependency-unpack",
                         "cannot unpack " + what + " into " + into + ": " + ran.error().message);
  }
  return util::ok_status();
}

}  // namespace reviewer::launch

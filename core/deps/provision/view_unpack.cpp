// Paths from the view's lists, and npm tarballs unpacked from the view into a job's scratch.
#include "core/deps/provision/view_unpack.h"

#include <fcntl.h>

#include <cctype>
#include <filesystem>

#include "core/exec/capture.h"
#include "core/util/file_read.h"

namespace reviewer::deps {

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

util::Refusal unpack_error(const std::string& what) {
  return util::refusal("dependency-unpack", what);
}

util::Result<std::string> read_view_list(const std::string& view, const std::string& name,
                                         std::uint64_t max_bytes) {
  util::ReadLimits limits;
  limits.max_bytes = max_bytes;
  auto list = util::read_regular_file(AT_FDCWD, view + "/" + name, limits);
  if (!list && util::file_fault(list.error()) == util::FileFault::kMissing) {
    return std::string();
  }
  if (!list) {
    return unpack_error(name + ": " + list.error().message);
  }
  return std::move(*list);
}

util::Status unpack_package(const std::string& tarball, const std::string& into,
                            const std::string& what) {
  std::error_code ec;
  std::filesystem::create_directories(into, ec);
  if (ec) {
    return unpack_error("cannot make " + into + ": " + ec.message());
  }
  auto ran = exec::capture_output({"/bin/tar", "-xzf", tarball, "-C", into, "--strip-components=1",
                                   "--no-same-owner", "--no-same-permissions"},
                                  {"PATH=/usr/bin:/bin", "LANG=C.UTF-8"});
  if (!ran) {
    return unpack_error("cannot unpack " + what + " into " + into + ": " + ran.error().message);
  }
  return util::ok_status();
}

}  // namespace reviewer::deps

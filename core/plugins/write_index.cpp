#include "core/plugins/write_index.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/plugins/registry.h"
#include "core/util/unique_fd.h"

namespace reviewer::plugins {

util::Status write_index(const std::string& dir) {
  auto registry = Registry::load_ignoring_index(dir);
  if (!registry) {
    return registry.refusals();
  }
  auto text = format_index(registry->as_index());
  if (!text) {
    return text.refusals();
  }
  const std::string path = dir + "/" + kIndexName;
  const std::string tmp = path + ".tmp";
  auto failed = [&](const char* what) {
    return util::refusal("plugin-index-invalid",
                         std::string("cannot ") + what + " '" + tmp + "': " + std::strerror(errno),
                         util::SourceLocation{path, 0, 0});
  };
  ::unlink(tmp.c_str());
  util::UniqueFd fd(
      ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (fd.get() < 0) {
    return failed("create");
  }
  // The umask must not decide who may write what the host trusts as much as the manifest.
  if (::fchmod(fd.get(), 0644) != 0) {
    return failed("chmod");
  }
  std::size_t done = 0;
  while (done < text->size()) {
    ssize_t n = ::write(fd.get(), text->data() + done, text->size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return failed("write");
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd.get()) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0) {
    return failed("write");
  }
  return util::ok_status();
}

}  // namespace reviewer::plugins

#include "core/plugins/file_checks.h"

#include <unistd.h>

#include <fcntl.h>
#include <fmt/format.h>

#include <fstream>

#include "core/util/file_read.h"

namespace reviewer::plugins {

util::Status check_ownership(const struct stat& st, const std::string& path,
                             const std::string& rule) {
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return report::Refusal{
        rule,
        fmt::format("'{}' is writable by group or others (mode {:o})", path, st.st_mode & 07777),
        util::SourceLocation{path, 0, 0}};
  }
  if (st.st_uid != 0 && st.st_uid != ::geteuid() && !unmapped_owner(st.st_uid)) {
    return report::Refusal{
        rule,
        fmt::format("'{}' is owned by uid {}, not root or uid {}", path, st.st_uid, ::geteuid()),
        util::SourceLocation{path, 0, 0}};
  }
  return util::ok_status();
}

bool unmapped_owner(uid_t uid) {
  unsigned long overflow = 0;
  std::ifstream("/proc/sys/kernel/overflowuid") >> overflow;
  if (overflow == 0 || uid != overflow) {
    return false;
  }
  std::ifstream map("/proc/self/uid_map");
  for (unsigned long inside = 0, outside = 0, count = 0; map >> inside >> outside >> count;) {
    if (overflow >= inside && overflow - inside < count) {
      return false;
    }
  }
  return true;
}

util::Result<std::string> read_install_file(const std::string& path, const std::string& what,
                                            const std::string& missing_rule,
                                            const std::string& invalid_rule) {
  const util::SourceLocation where{path, 0, 0};
  struct stat st {};
  auto fd = util::open_regular_file(AT_FDCWD, path, false, st);
  if (!fd) {
    if (util::file_fault(fd.error()) == util::FileFault::kNotRegular) {
      return util::refusal(missing_rule, "'" + path + "' is not a regular file", where);
    }
    return util::refusal(missing_rule, "cannot open '" + path + "': " + fd.error().message, where);
  }
  if (auto owned = check_ownership(st, path, "plugin-permissions"); !owned) {
    return owned.error();
  }
  auto text = util::read_open_file(fd->get(), st, {1 << 20});
  if (!text) {
    if (util::file_fault(text.error()) == util::FileFault::kTooLarge) {
      return util::refusal(invalid_rule, what + " larger than 1 MiB", where);
    }
    return util::refusal(missing_rule, "cannot read '" + path + "': " + text.error().message,
                         where);
  }
  return text;
}

}  // namespace reviewer::plugins

#include "core/plugins/file_checks.h"

#include <unistd.h>

#include <fmt/format.h>

namespace reviewer::plugins {

util::Status check_ownership(const struct stat& st, const std::string& path,
                             const std::string& rule) {
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return report::Refusal{
        rule,
        fmt::format("'{}' is writable by group or others (mode {:o})", path, st.st_mode & 07777),
        util::SourceLocation{path, 0, 0}};
  }
  if (st.st_uid != 0 && st.st_uid != ::geteuid()) {
    return report::Refusal{
        rule,
        fmt::format("'{}' is owned by uid {}, not root or uid {}", path, st.st_uid, ::geteuid()),
        util::SourceLocation{path, 0, 0}};
  }
  return util::ok_status();
}

}  // namespace reviewer::plugins

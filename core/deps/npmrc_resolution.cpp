#include "core/deps/npmrc_resolution.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <string_view>

#include "core/util/file_read.h"
#include "core/util/text.h"

namespace reviewer::deps {
namespace {

constexpr std::string_view kRule = "dependency-npmrc-invalid";

bool only(std::string_view v, std::string_view allowed_extra, bool letters) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [&](char c) {
    return (c >= '0' && c <= '9') ||
           (letters && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) ||
           allowed_extra.find(c) != std::string_view::npos;
  });
}

bool is_days(std::string_view v) { return v.size() <= 6 && only(v, "", false); }
bool is_date(std::string_view v) { return v.size() <= 40 && only(v, "-:.+TZ ", false); }
bool is_boolean(std::string_view v) { return v == "true" || v == "false"; }
bool is_strategy(std::string_view v) {
  return v == "hoisted" || v == "nested" || v == "shallow" || v == "linked";
}
bool is_tag(std::string_view v) { return v.size() <= 64 && only(v, "._-", true); }

struct Honoured {
  std::string_view key;
  bool (*valid)(std::string_view);
  std::string_view form;
};

constexpr std::array kHonoured = {
    Honoured{"min-release-age", &is_days, "a number of days"},
    Honoured{"before", &is_date, "a date"},
    Honoured{"legacy-peer-deps", &is_boolean, "true or false"},
    Honoured{"strict-peer-deps", &is_boolean, "true or false"},
    Honoured{"prefer-dedupe", &is_boolean, "true or false"},
    Honoured{"install-links", &is_boolean, "true or false"},
    Honoured{"install-strategy", &is_strategy, "hoisted, nested, shallow or linked"},
    Honoured{"tag", &is_tag, "a dist-tag"},
};

// ini's value: trimmed, one pair of matching quotes removed.
std::string_view unquoted(std::string_view v) {
  v = util::trim(v, " \t\r");
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
    v = v.substr(1, v.size() - 2);
  }
  return v;
}

util::Refusal refusal(const std::string& why) {
  return {std::string(kRule), ".npmrc: " + why, std::nullopt};
}

}  // namespace

util::Result<NpmrcResolution> npmrc_resolution(int tree_fd) {
  struct stat st {};
  if (::fstatat(tree_fd, ".npmrc", &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) {
      return NpmrcResolution{};
    }
    return refusal("cannot be read");
  }
  if (!S_ISREG(st.st_mode)) {
    return refusal(S_ISLNK(st.st_mode) ? "is a symbolic link" : "is not a regular file");
  }
  util::ReadLimits limits;
  limits.max_bytes = 64 * 1024;
  auto text = util::read_regular_file(tree_fd, ".npmrc", limits);
  if (!text) {
    return refusal(text.error().message);
  }
  // Each honoured key's last value, in the order keys first appear.
  std::vector<std::pair<const Honoured*, std::string>> found;
  std::string_view rest = *text;
  std::size_t number = 0;
  while (!rest.empty()) {
    ++number;
    const auto end = rest.find('\n');
    std::string_view line = util::trim(rest.substr(0, end), " \t\r");
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (line.empty() || line[0] == '#' || line[0] == ';') {
      continue;
    }
    // Keys after a `[section]` header belong to that section, which npm does not read.
    if (line[0] == '[') {
      break;
    }
    // ini reads a bare key as `key = true`.
    const auto eq = line.find('=');
    const std::string_view key = util::trim(line.substr(0, eq), " \t");
    const auto h = std::find_if(kHonoured.begin(), kHonoured.end(),
                                [&](const Honoured& x) { return x.key == key; });
    if (h == kHonoured.end()) {
      continue;
    }
    const std::string_view value =
        eq == std::string_view::npos ? std::string_view("true") : unquoted(line.substr(eq + 1));
    const std::string where = "line " + std::to_string(number) + ": '" + std::string(key) + "'";
    if (value.find("${") != std::string_view::npos) {
      return refusal(where +
                     " names an environment variable, which CI's environment fills and the "
                     "review's does not");
    }
    if (!h->valid(value)) {
      return refusal(where + " is not " + std::string(h->form));
    }
    auto seen =
        std::find_if(found.begin(), found.end(), [&](const auto& f) { return f.first == h; });
    if (seen != found.end()) {
      seen->second = std::string(value);
    } else {
      found.emplace_back(&*h, std::string(value));
    }
  }
  NpmrcResolution out;
  for (const auto& [h, value] : found) {
    out.flags.push_back("--" + std::string(h->key) + "=" + value);
    out.shown.push_back(std::string(h->key) + "=" + value);
  }
  return out;
}

}  // namespace reviewer::deps

#include "core/launch/hash_files.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include <reviewer/sdk/wildcard.hpp>

#include "core/util/sha256.h"

namespace reviewer::launch {
namespace {

std::vector<std::string_view> segments(std::string_view p) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= p.size()) {
    const auto slash = p.find('/', start);
    const auto end = slash == std::string_view::npos ? p.size() : slash;
    if (end > start) {
      out.push_back(p.substr(start, end - start));
    }
    if (slash == std::string_view::npos) {
      break;
    }
    start = slash + 1;
  }
  return out;
}

bool match_segments(const std::vector<std::string_view>& pat, std::size_t i,
                    const std::vector<std::string_view>& path, std::size_t j) {
  while (i < pat.size()) {
    if (pat[i] == "**") {
      for (std::size_t k = j; k <= path.size(); ++k) {
        if (match_segments(pat, i + 1, path, k)) {
          return true;
        }
      }
      return false;
    }
    if (j >= path.size() || !sdk::wildcard_match(pat[i], path[j])) {
      return false;
    }
    ++i;
    ++j;
  }
  return j == path.size();
}

std::string unhex(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
  if (pattern.starts_with("./")) {
    pattern.remove_prefix(2);
  }
  return match_segments(segments(pattern), 0, segments(path), 0);
}

util::Result<std::string> hash_files(const std::string& workspace,
                                     const std::vector<std::string>& patterns) {
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  for (const auto& p : patterns) {
    (p.starts_with("!") ? exclude : include).push_back(p.starts_with("!") ? p.substr(1) : p);
  }
  std::vector<std::string> matched;
  std::size_t walked = 0;
  std::error_code ec;
  namespace fs = std::filesystem;
  for (fs::recursive_directory_iterator it(workspace, fs::directory_options::none, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (++walked > kMaxHashFilesWalk) {
      return util::refusal("expression-error", "hashFiles walked more than " +
                                                   std::to_string(kMaxHashFilesWalk) + " files");
    }
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) {
      continue;
    }
    const std::string rel = fs::relative(it->path(), workspace, ec).generic_string();
    auto hit = [&rel](const std::string& g) { return glob_match(g, rel); };
    if (std::any_of(include.begin(), include.end(), hit) &&
        std::none_of(exclude.begin(), exclude.end(), hit)) {
      matched.push_back(rel);
    }
  }
  if (ec) {
    return util::refusal("expression-error",
                         "hashFiles cannot walk the workspace: " + ec.message());
  }
  std::sort(matched.begin(), matched.end());
  std::string digests;
  for (const auto& rel : matched) {
    auto h = util::sha256_file(workspace + "/" + rel);
    if (!h) {
      return util::refusal("expression-error",
                           "hashFiles cannot read " + rel + ": " + h.error().message);
    }
    digests += unhex(*h);
  }
  return matched.empty() ? std::string() : util::sha256_hex(digests);
}

}  // namespace reviewer::launch

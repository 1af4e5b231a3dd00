#include "core/deps/provision/npm_cache_seed.h"

#include <filesystem>

namespace reviewer::deps {

util::Result<std::string> seed_npm_cache(const std::string& view,
                                         const std::string& job_cache_dir) {
  namespace fs = std::filesystem;
  const fs::path from = fs::path(view) / "_cacache";
  const fs::path to = fs::path(job_cache_dir) / "npm" / "_cacache";
  std::error_code ec;
  fs::create_directories(to, ec);
  for (fs::recursive_directory_iterator it(from, fs::directory_options::none, ec), end;
       !ec && it != end; it.increment(ec)) {
    const fs::path target = to / fs::relative(it->path(), from, ec);
    if (ec) {
      break;
    }
    const fs::file_status st = it->symlink_status(ec);
    if (fs::is_directory(st)) {
      fs::create_directory(target, ec);
    } else if (fs::is_regular_file(st)) {
      fs::copy_file(it->path(), target, fs::copy_options::overwrite_existing, ec);
    } else {
      return util::refusal("dependency-cache-seed",
                           "the dependency view holds " + it->path().string() +
                               ", which is neither a directory nor a regular file");
    }
  }
  if (ec) {
    return util::refusal("dependency-cache-seed",
                         "cannot seed the job's npm cache from " + view + ": " + ec.message());
  }
  return (fs::path(job_cache_dir) / "npm").string();
}

}  // namespace reviewer::deps

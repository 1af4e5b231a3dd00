#include "core/deps/store_index.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "core/util/file_read.h"

namespace reviewer::deps {

namespace fs = std::filesystem;

std::string store_index_path(const Store& store, const std::string& kind,
                             const std::string& registry, const std::string& key) {
  std::string dir;
  for (char c : registry) {
    dir += (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-') ? c : '_';
  }
  return store.root() + "/" + kind + "/" + dir + "/" + key;
}

std::optional<StoreRecord> read_store_record(const std::string& path) {
  auto text = util::read_regular_file(AT_FDCWD, path);
  if (!text) {
    return std::nullopt;
  }
  const auto eol = text->find('\n');
  StoreRecord out{text->substr(0, eol), eol == std::string::npos ? "" : text->substr(eol + 1)};
  const auto lower_hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  if (out.sha512.size() != 128 || !std::all_of(out.sha512.begin(), out.sha512.end(), lower_hex)) {
    return std::nullopt;
  }
  return out;
}

std::optional<std::string> read_store_index(const std::string& path) {
  auto record = read_store_record(path);
  return record ? std::optional(record->sha512) : std::nullopt;
}

util::Status write_store_index(const std::string& path, const std::string& sha512,
                               const std::string& detail) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << sha512 << "\n" << detail;
    if (!out.flush()) {
      return util::refusal(util::RefusalKind::kHost, "dependency-store", "cannot write " + tmp);
    }
  }
  ::chmod(tmp.c_str(), 0644);
  fs::rename(tmp, path, ec);
  if (ec) {
    return util::refusal(util::RefusalKind::kHost, "dependency-store",
                         "cannot write " + path + ": " + ec.message());
  }
  return util::ok_status();
}

}  // namespace reviewer::deps

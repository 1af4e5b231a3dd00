#include "core/util/environ.h"

#include <string_view>

namespace reviewer::util {
namespace {

void add_entry(std::map<std::string, std::string>& out, std::string_view entry) {
  auto eq = entry.find('=');
  if (eq != std::string_view::npos && eq > 0) {
    out.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
}

}  // namespace

std::map<std::string, std::string> parse_environ(const std::string& block) {
  std::map<std::string, std::string> out;
  std::size_t start = 0;
  while (start < block.size()) {
    std::size_t end = block.find('\0', start);
    if (end == std::string::npos) {
      end = block.size();
    }
    add_entry(out, std::string_view(block).substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::map<std::string, std::string> environ_map(char** env) {
  std::map<std::string, std::string> out;
  for (char** e = env; e != nullptr && *e != nullptr; ++e) {
    add_entry(out, *e);
  }
  return out;
}

}  // namespace reviewer::util

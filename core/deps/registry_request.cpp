#include "core/deps/registry_request.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "core/contract/view_layout.h"

namespace reviewer::deps {
namespace {

// npm's longest package name, scope included.
constexpr std::size_t kMaxName = 214;

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.' || c == '_' ||
         c == '~';
}

// One part of a package name (the scope's or the name's): what npm accepts, never "." or "..",
// never starting with '.' (so never a hidden file of the view, such as the metadata's).
bool plain_part(std::string_view part) {
  return !part.empty() && part.front() != '.' && std::all_of(part.begin(), part.end(), name_char);
}

bool package_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxName) {
    return false;
  }
  if (name.front() != '@') {
    return plain_part(name);
  }
  const auto slash = name.find('/');
  return slash != std::string_view::npos && plain_part(name.substr(1, slash - 1)) &&
         plain_part(name.substr(slash + 1));
}

// The path as a registry client writes a scoped name ("@scope%2fname"), decoded; nullopt for any
// other escape, which no package name needs.
std::optional<std::string> decode(std::string_view path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '%') {
      out += path[i];
      continue;
    }
    const std::string_view esc = path.substr(i + 1, 2);
    if (esc == "2f" || esc == "2F") {
      out += '/';
    } else if (esc == "40") {
      out += '@';
    } else {
      return std::nullopt;
    }
    i += 2;
  }
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

bool token(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) != 0;
  });
}

}  // namespace

std::optional<std::string> registry_file(std::string_view target) {
  // The query (`?write=true` and the like) changes nothing a read-only registry answers.
  target = target.substr(0, target.find('?'));
  if (!target.starts_with('/')) {
    return std::nullopt;
  }
  auto path = decode(target.substr(1));
  if (!path) {
    return std::nullopt;
  }
  const auto dash = path->find("/-/");
  if (dash == std::string::npos) {
    if (!package_name(*path)) {
      return std::nullopt;
    }
    return *path + "/" + contract::kPackumentFile;
  }
  const std::string name = path->substr(0, dash);
  const std::string file = path->substr(dash + 3);
  if (!package_name(name) || !plain_part(file) || !file.ends_with(".tgz")) {
    return std::nullopt;
  }
  return name + "/-/" + file;
}

HeadParse parse_request_head(std::string_view bytes) {
  HeadParse out;
  const auto end = bytes.find("\r\n\r\n");
  if (end == std::string_view::npos) {
    return out;
  }
  out.length = end + 4;
  out.state = HeadParse::State::kMalformed;
  std::string_view head = bytes.substr(0, end + 2);
  auto next_line = [&]() {
    const auto eol = head.find("\r\n");
    std::string_view line = head.substr(0, eol);
    head.remove_prefix(eol + 2);
    return line;
  };
  const std::string_view request_line = next_line();
  const auto sp1 = request_line.find(' ');
  const auto sp2 = request_line.rfind(' ');
  if (sp1 == std::string_view::npos || sp1 == sp2) {
    return out;
  }
  const std::string_view method = request_line.substr(0, sp1);
  const std::string_view target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view version = request_line.substr(sp2 + 1);
  if (!token(method) || target.empty() || target.find(' ') != std::string_view::npos ||
      (version != "HTTP/1.1" && version != "HTTP/1.0")) {
    return out;
  }
  bool keep_alive = version == "HTTP/1.1";
  std::string accept;
  while (!head.empty()) {
    const std::string_view line = next_line();
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0 || line.front() == ' ' ||
        line.front() == '\t') {
      return out;  // no folded or nameless header lines (RFC 9112 5.2)
    }
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "transfer-encoding") || (iequals(name, "content-length") && value != "0")) {
      return out;
    }
    if (iequals(name, "accept")) {
      accept = value;
    }
    if (iequals(name, "connection")) {
      keep_alive = !iequals(value, "close") && (keep_alive || iequals(value, "keep-alive"));
    }
  }
  out.state = HeadParse::State::kComplete;
  out.request = {std::string(method), std::string(target), std::move(accept), keep_alive};
  return out;
}

}  // namespace reviewer::deps

#include "artifact_name.h"

#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/js_text.hpp>

#include <array>
#include <cctype>

namespace upload_artifact_plugin {
namespace {

struct Forbidden {
  char c;
  const char* what;
};
// invalidArtifactNameCharacters (path-and-artifact-name-validation.ts), in the toolkit's order.
constexpr std::array kForbidden = {
    Forbidden{'"', "double quote \""}, Forbidden{':', "colon :"},
    Forbidden{'<', "less than <"},     Forbidden{'>', "greater than >"},
    Forbidden{'|', "vertical bar |"},  Forbidden{'*', "asterisk *"},
    Forbidden{'?', "question mark ?"}, Forbidden{'\r', "carriage return \\r"},
    Forbidden{'\n', "line feed \\n"},  Forbidden{'\\', "backslash \\"},
    Forbidden{'/', "forward slash /"},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

}  // namespace

std::string name_problem(std::string_view name) {
  if (name.empty()) {
    return "is empty";
  }
  for (const auto& f : kForbidden) {
    if (name.find(f.c) != std::string_view::npos) {
      return "contains the forbidden character " + std::string(f.what);
    }
  }
  return {};
}

std::string file_path_problem(std::string_view path) {
  // invalidArtifactFilePathCharacters: the name's list without the two separators.
  for (const auto& f : kForbidden) {
    if (f.c != '/' && f.c != '\\' && path.find(f.c) != std::string_view::npos) {
      return "contains the forbidden character " + std::string(f.what);
    }
  }
  return {};
}

std::optional<std::string> uploaded_name(const reviewer::sdk::StepView& step) {
  if (auto archive = step.inputs().find("archive");
      archive && !reviewer::sdk::is_strict_true(reviewer::sdk::js::trim(archive->value))) {
    return std::nullopt;
  }
  const bool merge = step.action() == "actions/upload-artifact/merge";
  auto name = step.inputs().find("name");
  if (!name) {
    return std::string(merge ? "merged-artifacts" : "artifact");
  }
  return std::string(reviewer::sdk::js::trim(name->value));
}

bool may_equal(std::string_view pattern, std::string_view name) {
  const std::string p = lower(pattern);
  const std::string n = lower(name);
  if (p.find("${{") == std::string::npos) {
    return p == n;
  }
  // Each literal part (trimmed: an expression may supply the whitespace the name's own trim
  // drops) must occur in `name`, in order; that holds for every name the pattern can become.
  std::size_t at = 0;
  std::size_t from = 0;
  while (from <= p.size()) {
    std::size_t open = p.find("${{", from);
    std::string_view part = reviewer::sdk::js::trim(std::string_view(p).substr(
        from, open == std::string::npos ? std::string::npos : open - from));
    std::size_t found = n.find(part, at);
    if (found == std::string::npos) {
      return false;
    }
    at = found + part.size();
    if (open == std::string::npos) {
      break;
    }
    std::size_t close = p.find("}}", open + 3);
    if (close == std::string::npos) {
      break;
    }
    from = close + 2;
  }
  return true;
}

}  // namespace upload_artifact_plugin

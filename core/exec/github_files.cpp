#include "core/exec/github_files.h"

#include <sstream>

#include "core/workflow/env_policy.h"

namespace reviewer::exec {
namespace {

void strip_cr(std::string& line) {
  if (!line.empty() && line.back() == '\r') {
    line.pop_back();
  }
}

}  // namespace

GithubFileUpdates parse_github_files(const std::string& env_text, const std::string& path_text,
                                     const std::string& step_label) {
  GithubFileUpdates out;
  auto refuse = [&](const std::string& rule, const std::string& message) {
    out.refusals.push_back({rule, step_label + ": " + message, std::nullopt});
  };
  std::istringstream in(env_text);
  std::string line;
  while (std::getline(in, line)) {
    strip_cr(line);
    if (line.empty()) {
      continue;
    }
    auto heredoc = line.find("<<");
    auto eq = line.find('=');
    std::string name;
    std::string value;
    if (heredoc != std::string::npos && (eq == std::string::npos || heredoc < eq)) {
      name = line.substr(0, heredoc);
      std::string delim = line.substr(heredoc + 2);
      if (delim.empty()) {
        refuse("github-env-invalid", "GITHUB_ENV heredoc for '" + name + "' has no delimiter");
        break;
      }
      bool closed = false;
      bool first = true;
      while (std::getline(in, line)) {
        strip_cr(line);
        if (line == delim) {
          closed = true;
          break;
        }
        if (!first) {
          value += '\n';
        }
        value += line;
        first = false;
      }
      if (!closed) {
        refuse("github-env-invalid",
               "GITHUB_ENV heredoc for '" + name + "' is not closed by '" + delim + "'");
        break;
      }
    } else if (eq != std::string::npos) {
      name = line.substr(0, eq);
      value = line.substr(eq + 1);
    } else {
      refuse("github-env-invalid", "GITHUB_ENV line is neither NAME=value nor NAME<<DELIM");
      continue;
    }
    if (auto verdict = workflow::check_env_name(name)) {
      refuse(verdict->rule, "GITHUB_ENV sets '" + name + "', which " + verdict->reason);
      continue;
    }
    out.env.push_back({name, value, {}});
  }
  std::istringstream pin(path_text);
  while (std::getline(pin, line)) {
    strip_cr(line);
    if (line.empty()) {
      continue;
    }
    if (line.front() != '/' || line.find(':') != std::string::npos) {
      refuse("github-path-invalid",
             "GITHUB_PATH entry '" + line + "' must be one absolute directory (no ':')");
      continue;
    }
    out.path.push_back(line);
  }
  if (!out.refusals.empty()) {
    out.env.clear();
    out.path.clear();
  }
  return out;
}

}  // namespace reviewer::exec

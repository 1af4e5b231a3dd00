#include "core/exec/github_files.h"

#include <functional>
#include <sstream>

#include "core/workflow/env_policy.h"

namespace reviewer::exec {
namespace {

using Refuse = std::function<void(const std::string&, const std::string&)>;

void strip_cr(std::string& line) {
  if (!line.empty() && line.back() == '\r') {
    line.pop_back();
  }
}

// NAME=value and NAME<<DELIM heredoc lines, as the runner reads GITHUB_ENV and GITHUB_OUTPUT.
// `check_names` applies the env policy (outputs are names of the steps context, not variables).
void parse_key_values(const std::string& text, const std::string& variable, bool check_names,
                      std::vector<workflow::Entry>& into, const Refuse& refuse) {
  std::istringstream in(text);
  std::string line;
  const std::string invalid =
      variable == "GITHUB_ENV" ? "github-env-invalid" : "github-output-invalid";
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
        refuse(invalid, variable + " heredoc for '" + name + "' has no delimiter");
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
        refuse(invalid, variable + " heredoc for '" + name + "' is not closed by '" + delim + "'");
        break;
      }
    } else if (eq != std::string::npos) {
      name = line.substr(0, eq);
      value = line.substr(eq + 1);
    } else {
      refuse(invalid, variable + " line is neither NAME=value nor NAME<<DELIM");
      continue;
    }
    if (check_names) {
      if (auto verdict = workflow::check_env_name(name)) {
        refuse(verdict->rule, variable + " sets '" + name + "', which " + verdict->reason);
        continue;
      }
    }
    into.push_back({name, value, {}});
  }
}

}  // namespace

util::Result<GithubFileUpdates> parse_github_files(const std::string& env_text,
                                                   const std::string& path_text,
                                                   const std::string& step_label,
                                                   const std::string& output_text) {
  GithubFileUpdates out;
  report::Refusals refusals;
  Refuse refuse = [&](const std::string& rule, const std::string& message) {
    refusals.push_back({rule, step_label + ": " + message, std::nullopt});
  };
  parse_key_values(env_text, "GITHUB_ENV", true, out.env, refuse);
  parse_key_values(output_text, "GITHUB_OUTPUT", false, out.output, refuse);
  std::string line;
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
  if (!refusals.empty()) {
    return refusals;
  }
  return out;
}

}  // namespace reviewer::exec

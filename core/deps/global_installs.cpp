// global_installs_of: the `npm install -g NAME[@SPEC]` commands of a run step's script.
#include "core/deps/global_installs.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

namespace reviewer::deps {
namespace {

// npm's aliases of `install` (npm 11's `npm help install`) and `add`.
constexpr std::array<std::string_view, 12> kInstallAliases = {
    "install", "i",    "in",    "ins",    "inst",    "insta",
    "instal",  "isnt", "isnta", "isntal", "isntall", "add"};

// Flags that take no value and do not change what is installed.
constexpr std::array<std::string_view, 12> kPlainFlags = {"--force",
                                                          "--global",
                                                          "--no-save",
                                                          "--silent",
                                                          "--quiet",
                                                          "--no-fund",
                                                          "--no-audit",
                                                          "--no-progress",
                                                          "--ignore-scripts",
                                                          "--no-update-notifier",
                                                          "--foreground-scripts",
                                                          "--location=global"};

bool is_global(std::string_view w) {
  if (w == "--global" || w == "--location=global" || w == "-g") {
    return true;
  }
  // A cluster of one-letter flags, as nopt expands it (`-fg` is `-f -g`).
  return w.size() > 2 && w[0] == '-' && w[1] != '-' &&
         std::all_of(w.begin() + 1, w.end(), [](char c) { return std::isalpha(c) != 0; }) &&
         w.find('g') != std::string_view::npos;
}

bool is_known_flag(std::string_view w) {
  if (is_global(w) || std::find(kPlainFlags.begin(), kPlainFlags.end(), w) != kPlainFlags.end()) {
    return true;
  }
  // `--loglevel=warn` and the like: a value attached, nothing that names what is installed.
  return w.starts_with("--loglevel=") || w == "-f" || w == "-s" || w == "-q";
}

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.' || c == '_' ||
         c == '~';
}

// "corepack", "@scope/pkg@^1.2", "pnpm@9": a registry name and a version, range or tag.
std::optional<GlobalInstall> package_of(std::string_view w) {
  std::size_t name_end = 0;
  if (w.starts_with("@")) {
    const auto slash = w.find('/');
    if (slash == std::string_view::npos || slash == 1) {
      return std::nullopt;
    }
    name_end = w.find('@', slash);
  } else {
    name_end = w.find('@');
  }
  const std::string_view name = w.substr(0, name_end);
  const std::string_view spec =
      name_end == std::string_view::npos ? std::string_view("*") : w.substr(name_end + 1);
  const std::string_view bare = name.starts_with("@") ? name.substr(name.find('/') + 1) : name;
  const std::string_view scope = name.starts_with("@") ? name.substr(1, name.find('/') - 1) : "";
  if (bare.empty() || bare.size() > 214 || bare[0] == '.' || bare[0] == '_' || spec.empty() ||
      !std::all_of(bare.begin(), bare.end(), name_char) ||
      !std::all_of(scope.begin(), scope.end(), name_char)) {
    return std::nullopt;
  }
  const bool plain_spec = std::all_of(spec.begin(), spec.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' || c == '^' ||
           c == '~' || c == '*' || c == '<' || c == '>' || c == '=' || c == '+';
  });
  if (!plain_spec) {
    return std::nullopt;
  }
  return GlobalInstall{std::string(name), std::string(spec)};
}

std::vector<std::string_view> words_of(std::string_view command) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < command.size()) {
    while (i < command.size() && (command[i] == ' ' || command[i] == '\t')) {
      ++i;
    }
    const std::size_t start = i;
    while (i < command.size() && command[i] != ' ' && command[i] != '\t') {
      ++i;
    }
    if (i > start) {
      out.push_back(command.substr(start, i - start));
    }
  }
  return out;
}

void read_command(std::string_view command, std::vector<GlobalInstall>& out) {
  const auto words = words_of(command);
  if (words.size() < 3 || words[0] != "npm") {
    return;
  }
  bool global = false;
  bool install = false;
  std::vector<GlobalInstall> found;
  for (std::size_t k = 1; k < words.size(); ++k) {
    const std::string_view w = words[k];
    if (w.starts_with("-")) {
      if (!is_known_flag(w)) {
        return;  // it may take a value, or change what is installed
      }
      global = global || is_global(w);
    } else if (!install) {
      if (std::find(kInstallAliases.begin(), kInstallAliases.end(), w) == kInstallAliases.end()) {
        return;
      }
      install = true;
    } else if (auto p = package_of(w)) {
      found.push_back(*p);
    } else {
      return;
    }
  }
  if (global && install) {
    out.insert(out.end(), found.begin(), found.end());
  }
}

}  // namespace

std::vector<GlobalInstall> global_installs_of(std::string_view script) {
  std::vector<GlobalInstall> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= script.size(); ++i) {
    const bool end = i == script.size();
    const char c = end ? '\n' : script[i];
    if (c == '\'' || c == '"' || c == '`' || c == '$' || c == '\\') {
      // Quoting, expansion or a continued line: this command is passed over whole.
      while (i < script.size() && script[i] != '\n' && script[i] != ';' && script[i] != '&' &&
             script[i] != '|') {
        ++i;
      }
      start = i + 1;
      continue;
    }
    // A comment begins at a word's start; the rest of its line is not read.
    const bool comment = c == '#' && (i == 0 || script[i - 1] == ' ' || script[i - 1] == '\t' ||
                                      script[i - 1] == '\n');
    if (c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || comment) {
      read_command(script.substr(start, i - start), out);
      while (comment && i < script.size() && script[i] != '\n') {
        ++i;
      }
      start = i + 1;
    }
  }
  return out;
}

namespace {

void add_steps(const std::vector<plan::PlannedStep>& steps, std::vector<GlobalInstall>& out) {
  for (const auto& s : steps) {
    if (s.local) {
      add_steps(s.local->steps, out);
    }
    if (!s.step.is_run()) {
      continue;
    }
    for (auto& g : global_installs_of(s.step.run)) {
      const bool seen = std::any_of(out.begin(), out.end(),
                                    [&](const GlobalInstall& o) { return o.name == g.name; });
      if (!seen) {
        out.push_back(std::move(g));
      }
    }
  }
}

}  // namespace

std::vector<GlobalInstall> global_npm_installs(const plan::Plan& plan) {
  std::vector<GlobalInstall> out;
  for (const plan::PlannedJob* job : plan::jobs_with_steps(plan.jobs)) {
    add_steps(job->steps, out);
  }
  return out;
}

}  // namespace reviewer::deps

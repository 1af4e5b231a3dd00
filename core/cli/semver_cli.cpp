// `reviewer semver`: node-semver's own command line (bin/semver.js, semver 7.8), argument for
// argument, over core/resolve's port. Arguments are parsed by hand, exactly as semver.js
// parses them.
#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "core/cli/semver_cli.h"
#include "core/report/exit_code.h"
#include "core/semver/functions.h"

namespace reviewer::cli {
namespace {

using semver::Options;

constexpr const char* kHelp = R"(Usage: reviewer semver [options] <version> [<version> [...]]
Prints valid versions sorted by SemVer precedence (npm semver's command line)

Options:
-r --range <range>
        Print versions that match the specified range.

-l --loose
        Interpret versions and ranges loosely

-p --include-prerelease
        Always include prerelease versions in range matching

-rv --rev --reverse
        Print in descending order

--
        Treat every later argument as a version

Not supported here (exit 2): -i/--inc/--increment, -c/--coerce.

Program exits successfully if any valid version satisfies
all supplied ranges, and prints all satisfying versions.

If no satisfying versions are found, then exits failure.

Versions are printed in ascending order, so supplying
multiple versions to the utility will just sort them.)";

struct Parsed {
  std::vector<std::optional<std::string>> versions;  // nullopt: `-v` with nothing after it
  std::vector<std::optional<std::string>> ranges;    // nullopt: `-r` with nothing after it
  Options options;
  bool reverse = false;
  bool help = false;
  std::string unsupported;
};

Parsed parse_args(std::vector<std::string> argv) {
  Parsed p;
  std::size_t i = 0;
  const auto next = [&]() -> std::optional<std::string> {
    if (i >= argv.size()) {
      return std::nullopt;
    }
    return argv[i++];
  };
  while (i < argv.size()) {
    std::string a = argv[i++];
    if (a == "--") {  // our addition: npm would treat "--" as an (invalid) version
      while (i < argv.size()) {
        p.versions.push_back(argv[i++]);
      }
      break;
    }
    // semver.js splits every argument at its first '=' and reads the rest as the next one.
    if (const std::size_t eq = a.find('='); eq != std::string::npos) {
      argv.insert(argv.begin() + static_cast<std::ptrdiff_t>(i), a.substr(eq + 1));
      a.resize(eq);
    }
    if (a == "-rv" || a == "-rev" || a == "--rev" || a == "--reverse") {
      p.reverse = true;
    } else if (a == "-l" || a == "--loose") {
      p.options.loose = true;
    } else if (a == "-p" || a == "--include-prerelease") {
      p.options.include_prerelease = true;
    } else if (a == "-v" || a == "--version") {
      p.versions.push_back(next());
    } else if (a == "-r" || a == "--range") {
      p.ranges.push_back(next());
    } else if (a == "--preid" || a == "-n") {
      next();  // only meaningful with --inc
    } else if (a == "--rtl" || a == "--ltr") {
      // only meaningful with --coerce
    } else if (a == "-i" || a == "--inc" || a == "--increment" || a == "-c" || a == "--coerce") {
      p.unsupported = a;
      return p;
    } else if (a == "-h" || a == "--help" || a == "-?") {
      p.help = true;
      return p;
    } else {
      p.versions.push_back(a);
    }
  }
  return p;
}

}  // namespace

int run_semver(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::cout << kHelp << '\n';
    return report::to_int(report::ExitCode::kOk);
  }
  const Parsed p = parse_args(args);
  if (p.help) {
    std::cout << kHelp << '\n';
    return report::to_int(report::ExitCode::kOk);
  }
  if (!p.unsupported.empty()) {
    std::cerr << "reviewer semver: " << p.unsupported << " is not supported\n";
    return report::to_int(report::ExitCode::kUsage);
  }
  constexpr int kNoneMatched = 1;
  // Invalid versions are dropped; each kept one is parsed once for sorting.
  std::vector<std::pair<std::string, semver::Version>> kept;
  for (const auto& v : p.versions) {
    if (!v) {
      continue;
    }
    if (auto parsed = semver::parse_version(*v, p.options.loose)) {
      kept.emplace_back(*v, *parsed);
    }
  }
  if (kept.empty()) {
    return kNoneMatched;
  }
  for (const auto& range_text : p.ranges) {
    // A missing range (a trailing -r) matches nothing, as satisfies(v, undefined) is false.
    std::optional<semver::Range> range;
    if (range_text) {
      if (auto r = semver::Range::parse(*range_text, p.options)) {
        range = std::move(r).value();
      }
    }
    std::erase_if(kept, [&](const auto& v) { return !range || !range->test(v.second); });
    if (kept.empty()) {
      return kNoneMatched;
    }
  }
  std::stable_sort(kept.begin(), kept.end(), [&](const auto& a, const auto& b) {
    const int c = semver::compare(a.second, b.second);
    return p.reverse ? c > 0 : c < 0;
  });
  for (const auto& [text, version] : kept) {
    auto cleaned = semver::clean_version(text, p.options);
    std::cout << (cleaned ? *cleaned : std::string("null")) << '\n';
  }
  return report::to_int(report::ExitCode::kOk);
}

}  // namespace reviewer::cli

#include "tests/unit/semver/regex_oracle.h"

#include <string>
#include <utility>

namespace reviewer::semver::detail {
namespace {

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
}

// makeSafeRegex: `\s*` -> `\s{0,1}`, `\d+` -> `\d{1,256}`, `[a-zA-Z0-9-]*` -> `{0,250}`, ...
std::string make_safe(std::string value) {
  const std::pair<std::string, int> replacements[] = {
      {"\\s", 1}, {"\\d", 256}, {"[a-zA-Z0-9-]", 250}};
  for (const auto& [token, max] : replacements) {
    replace_all(value, token + "*", token + "{0," + std::to_string(max) + "}");
    replace_all(value, token + "+", token + "{1," + std::to_string(max) + "}");
  }
  return value;
}

std::regex compile(const std::string& src) {
  return std::regex(make_safe(src), std::regex::ECMAScript);
}

SemverRegexes build_all() {
  const std::string letterdashnumber = "[a-zA-Z0-9-]";
  const std::string numeric = "0|[1-9]\\d*";
  const std::string numeric_loose = "\\d+";
  const std::string nonnumeric = "\\d*[a-zA-Z-]" + letterdashnumber + "*";
  const std::string mainversion = "(" + numeric + ")\\.(" + numeric + ")\\.(" + numeric + ")";
  const std::string mainversion_loose =
      "(" + numeric_loose + ")\\.(" + numeric_loose + ")\\.(" + numeric_loose + ")";
  const std::string pre_id = "(?:" + nonnumeric + "|" + numeric + ")";
  const std::string pre_id_loose = "(?:" + nonnumeric + "|" + numeric_loose + ")";
  const std::string prerelease = "(?:-(" + pre_id + "(?:\\." + pre_id + ")*))";
  const std::string prerelease_loose = "(?:-?(" + pre_id_loose + "(?:\\." + pre_id_loose + ")*))";
  const std::string build_id = letterdashnumber + "+";
  const std::string build = "(?:\\+(" + build_id + "(?:\\." + build_id + ")*))";
  const std::string fullplain = "v?" + mainversion + prerelease + "?" + build + "?";
  const std::string looseplain =
      "[v=\\s]*" + mainversion_loose + prerelease_loose + "?" + build + "?";
  const std::string gtlt = "((?:<|>)?=?)";
  const std::string xid_loose = numeric_loose + "|x|X|\\*";
  const std::string xid = numeric + "|x|X|\\*";
  const std::string xplain = "[v=\\s]*(" + xid + ")(?:\\.(" + xid + ")(?:\\.(" + xid +
                             ")(?:" + prerelease + ")?" + build + "?)?)?";
  const std::string xplain_loose = "[v=\\s]*(" + xid_loose + ")(?:\\.(" + xid_loose + ")(?:\\.(" +
                                   xid_loose + ")(?:" + prerelease_loose + ")?" + build + "?)?)?";
  const std::string lonetilde = "(?:~>?)";
  const std::string lonecaret = "(?:\\^)";

  SemverRegexes r;
  r.full = compile("^" + fullplain + "$");
  r.loose = compile("^" + looseplain + "$");
  r.xrange = compile("^" + gtlt + "\\s*" + xplain + "$");
  r.xrange_loose = compile("^" + gtlt + "\\s*" + xplain_loose + "$");
  r.tilde = compile("^" + lonetilde + xplain + "$");
  r.tilde_loose = compile("^" + lonetilde + xplain_loose + "$");
  r.caret = compile("^" + lonecaret + xplain + "$");
  r.caret_loose = compile("^" + lonecaret + xplain_loose + "$");
  r.comparator = compile("^" + gtlt + "\\s*(" + fullplain + ")$|^$");
  r.comparator_loose = compile("^" + gtlt + "\\s*(" + looseplain + ")$|^$");
  r.comparator_trim = compile("(\\s*)" + gtlt + "\\s*(" + looseplain + "|" + xplain + ")");
  r.tilde_trim = compile("(\\s*)" + lonetilde + "\\s+");
  r.caret_trim = compile("(\\s*)" + lonecaret + "\\s+");
  r.hyphen = compile("^\\s*(" + xplain + ")\\s+-\\s+(" + xplain + ")\\s*$");
  r.hyphen_loose = compile("^\\s*(" + xplain_loose + ")\\s+-\\s+(" + xplain_loose + ")\\s*$");
  r.star = compile("(<|>)?=?\\s*\\*");
  r.gte0 = compile("^\\s*>=\\s*0\\.0\\.0\\s*$");
  r.gte0_pre = compile("^\\s*>=\\s*0\\.0\\.0-0\\s*$");
  r.build = compile(build);
  r.build_strip = std::regex(build, std::regex::ECMAScript);  // deliberately unbounded
  return r;
}

}  // namespace

const SemverRegexes& semver_regexes() {
  static const SemverRegexes kRegexes = build_all();
  return kRegexes;
}

}  // namespace reviewer::semver::detail

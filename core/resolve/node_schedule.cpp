#include "core/resolve/node_schedule.h"

#include <algorithm>
#include <cctype>
#include <ctime>

namespace reviewer::resolve {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_latest_syntax(std::string_view v) { return v == "node" || v == "latest" || v == "current"; }

// setup-node's `Number(alias) < 0` for the forms a workflow writes: -1, -2, ...
bool negative_index(std::string_view alias, std::size_t& n) {
  if (alias.size() < 2 || alias[0] != '-' || alias[1] == '0') {
    return false;
  }
  n = 0;
  for (char c : alias.substr(1)) {
    if (c < '0' || c > '9' || n > 1000) {
      return false;
    }
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  return true;
}

util::Refusal unanswered(std::string_view alias, const NodeSchedule& schedule,
                         std::string_view today, const std::string& why) {
  return util::refusal("invalid-declaration",
                       "node " + std::string(alias) + " names no Node.js line on " +
                           std::string(today) + ": " + why + " (the matrix's release schedule, " +
                           schedule.source + ")");
}

}  // namespace

bool is_schedule_alias(std::string_view value) {
  return value.starts_with("lts/") || is_latest_syntax(value);
}

util::Result<AliasLine> resolve_node_alias(std::string_view alias, const NodeSchedule& schedule,
                                           std::string_view today) {
  if (today.size() != 10) {
    return unanswered(alias, schedule, "(no date)", "the review has no date to resolve it on");
  }
  if (is_latest_syntax(alias)) {
    const NodeLine* newest = nullptr;
    for (const auto& line : schedule.lines) {
      if (!line.start.empty() && line.start <= today) {
        newest = &line;
      }
    }
    if (newest == nullptr) {
      return unanswered(alias, schedule, today, "no line has been released");
    }
    return AliasLine{newest->major, "the newest released line on " + std::string(today) +
                                        ", out since " + newest->start};
  }
  std::vector<const NodeLine*> lts;
  for (const auto& line : schedule.lines) {
    if (!line.lts.empty() && line.lts <= today) {
      lts.push_back(&line);
    }
  }
  const std::string_view name = alias.substr(4);
  const NodeLine* found = nullptr;
  std::string which;
  std::size_t back = 0;
  if (name == "*") {
    found = lts.empty() ? nullptr : lts.back();
    which = "the newest LTS line";
  } else if (negative_index(name, back)) {
    found = back < lts.size() ? lts[lts.size() - 1 - back] : nullptr;
    which = "the LTS line " + std::to_string(back) + " before the newest";
  } else {
    const std::string wanted = lower(name);
    for (const NodeLine* line : lts) {
      if (!line->codename.empty() && lower(line->codename) == wanted) {
        found = line;
      }
    }
    which = "the LTS line named '" + std::string(name) + "'";
  }
  if (found == nullptr) {
    return unanswered(alias, schedule, today, which + " does not exist yet");
  }
  return AliasLine{found->major, which + " on " + std::string(today) + ": '" + found->codename +
                                     "', LTS since " + found->lts};
}

std::string today_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char buf[11];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &utc);
  return buf;
}

}  // namespace reviewer::resolve

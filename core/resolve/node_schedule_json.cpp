#include "core/resolve/node_schedule_json.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/resolve/runtime_table_shapes.h"

namespace reviewer::resolve {

using nlohmann::json;

util::Status parse_node_schedule(const json& ns, const JsonValidator& check, NodeSchedule& out) {
  if (auto e = check.object(ns, "/node_schedule", {"source", "lines"}); !e) {
    return e;
  }
  if (!ns["source"].is_string() || ns["source"].get<std::string>().empty()) {
    return check.fail("/node_schedule/source", "must be a non-empty string");
  }
  out.source = ns["source"].get<std::string>();
  const json& lines = ns["lines"];
  if (!lines.is_object() || lines.empty()) {
    return check.fail("/node_schedule/lines", "must be a non-empty object");
  }
  for (const auto& item : lines.items()) {
    const std::string lp = "/node_schedule/lines/" + item.key();
    const std::string& key = item.key();
    if (key.empty() || key.size() > 3 || key.front() == '0' ||
        key.find_first_not_of("0123456789") != std::string::npos) {
      return check.fail(lp, "a line is named by its major version");
    }
    if (auto e = check.object(item.value(), lp, {"start"}, {"lts", "codename"}); !e) {
      return e;
    }
    NodeLine line;
    line.major = std::stoi(key);
    for (auto [field, dest] : {std::pair{"start", &line.start}, std::pair{"lts", &line.lts}}) {
      if (item.value().contains(field)) {
        if (auto e = check.string(item.value()[field], lp + "/" + field, shapes::date,
                                  "a YYYY-MM-DD date");
            !e) {
          return e;
        }
        *dest = item.value()[field].get<std::string>();
      }
    }
    if (item.value().contains("codename")) {
      if (!item.value()["codename"].is_string()) {
        return check.fail(lp + "/codename", "must be a string");
      }
      line.codename = item.value()["codename"].get<std::string>();
    }
    if (line.lts.empty() && !line.codename.empty()) {
      return check.fail(lp, "a codename belongs to an LTS line, which has an lts date");
    }
    out.lines.push_back(std::move(line));
  }
  std::sort(out.lines.begin(), out.lines.end(),
            [](const NodeLine& a, const NodeLine& b) { return a.major < b.major; });
  return util::ok_status();
}

std::string render_node_schedule(const NodeSchedule& schedule) {
  std::vector<const NodeLine*> lines;
  for (const auto& line : schedule.lines) {
    lines.push_back(&line);
  }
  std::sort(lines.begin(), lines.end(),
            [](const NodeLine* a, const NodeLine* b) { return a->major < b->major; });
  std::string out = R"({"source": )" + json_string(schedule.source) + R"(, "lines": {)";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const NodeLine& line = *lines[i];
    out += (i == 0 ? "\"" : ", \"") + std::to_string(line.major) + R"(": {"start": )" +
           json_string(line.start);
    if (!line.lts.empty()) {
      out += R"(, "lts": )" + json_string(line.lts);
    }
    if (!line.codename.empty()) {
      out += R"(, "codename": )" + json_string(line.codename);
    }
    out += "}";
  }
  return out + "}}";
}

}  // namespace reviewer::resolve

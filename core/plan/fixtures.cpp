#include "core/plan/fixtures.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "core/plan/planner.h"
#include "core/plan/repository_files.h"
#include "core/yaml/bounded_loader.h"

namespace reviewer::plan {
namespace {

yaml::Node scalar(const std::string& s, const util::SourceLocation& at) {
  yaml::Node n;
  n.kind = yaml::Node::Kind::kScalar;
  n.scalar = s;
  n.plain = true;
  n.location = at;
  return n;
}

yaml::Node mapping(const util::SourceLocation& at) {
  yaml::Node n;
  n.kind = yaml::Node::Kind::kMapping;
  n.location = at;
  return n;
}

// The workflow a case stands in: on pull_request into main, one job "fixture" with the case's
// steps and any `job:` keys, next to the case's `jobs:` (other jobs of the workflow, which are
// not planned unless "fixture" needs them, but are in the plugins' workflow-wide view).
yaml::Node workflow_for(const yaml::Node& c) {
  const auto& at = c.location;
  yaml::Node job = mapping(at);
  job.entries.emplace_back(scalar("runs-on", at), scalar("ubuntu-latest", at));
  if (const yaml::Node* extra = c.find("job"); extra != nullptr && extra->is_mapping()) {
    for (const auto& e : extra->entries) {
      job.entries.push_back(e);
    }
  }
  job.entries.emplace_back(scalar("steps", at), *c.find("steps"));
  yaml::Node jobs = mapping(at);
  jobs.entries.emplace_back(scalar("fixture", at), std::move(job));
  if (const yaml::Node* others = c.find("jobs"); others != nullptr && others->is_mapping()) {
    for (const auto& e : others->entries) {
      jobs.entries.push_back(e);
    }
  }
  yaml::Node root = mapping(at);
  root.entries.emplace_back(scalar("on", at), scalar("pull_request", at));
  root.entries.emplace_back(scalar("jobs", at), std::move(jobs));
  return root;
}

std::string got_text(const util::Result<Plan>& r) {
  if (!r) {
    std::string out = "refuse";
    for (const auto& x : r.refusals()) {
      out += " " + x.rule;
    }
    return out;
  }
  // The case's own job; the jobs it needs are planned before it.
  for (const auto& job : r->jobs) {
    if (job.id == "fixture") {
      return job.steps.back().skip ? "skip" : "run";
    }
  }
  return "(no fixture job)";
}

FixtureResult run_case(const std::string& file, const yaml::Node& c,
                       const plugins::Registry& registry) {
  FixtureResult res{file, "(unnamed)", false, ""};
  const yaml::Node* name = c.find("name");
  if (name != nullptr && name->is_scalar()) {
    res.name = name->scalar;
  }
  const yaml::Node* expect = c.find("expect");
  const yaml::Node* steps = c.find("steps");
  if (expect == nullptr || !expect->is_scalar() || steps == nullptr || !steps->is_sequence() ||
      steps->items.empty()) {
    res.detail = c.location.to_string() + ": a case needs 'steps' (a list) and 'expect'";
    return res;
  }
  // `files:` stands in for the repository (path: text, or path: {symlink: target}); without it
  // the plan has no repository files, as before.
  std::map<std::string, std::string> texts;
  const yaml::Node* files = c.find("files");
  if (files != nullptr && files->is_mapping()) {
    for (const auto& [path, value] : files->entries) {
      texts[path.scalar] = value.is_mapping() && value.find("symlink") != nullptr
                               ? MemoryFiles::kSymlinkForTest
                               : value.scalar;
    }
  }
  const MemoryFiles repository(std::move(texts));
  PlanRequest request{file, "fixture", "main", {}};
  request.files = files != nullptr ? &repository : nullptr;
  auto result = plan_workflow(workflow_for(c), request, registry);
  for (const auto& r : result ? util::Refusals{} : result.refusals()) {
    res.rules.push_back(r.rule);
  }
  std::istringstream words(expect->scalar);
  std::string kind;
  words >> kind;
  std::string got = got_text(result);
  if (kind == "skip" || kind == "run") {
    res.passed = got == kind;
  } else if (kind == "refuse") {
    std::set<std::string> want;
    for (std::string w; words >> w;) {
      want.insert(w);
    }
    std::set<std::string> have;
    if (!result) {
      for (const auto& r : result.refusals()) {
        have.insert(r.rule);
      }
    }
    res.passed = !result && !want.empty() && want == have;
  }
  // `pins:` lists the pins the plan's steps recorded as "runtime version", in order (a plugin's
  // fixture is about its steps; the runner's default the planner adds is not listed).
  if (const yaml::Node* pins = c.find("pins"); res.passed && pins != nullptr && result) {
    std::string want;
    for (const auto& p : pins->items) {
      want += (want.empty() ? "" : ", ") + p.scalar;
    }
    std::string have;
    for (const auto& p : result->pins) {
      if (!p.runner_default.empty()) {
        continue;
      }
      have += (have.empty() ? "" : ", ") + p.runtime + " " + p.version;
    }
    if (want != have) {
      res.passed = false;
      res.detail = "expected pins '" + want + "', got '" + have + "'";
      return res;
    }
  }
  // `message:` a text one of the refusals' messages must hold: the rule says what was refused,
  // the message what the author of the workflow is told.
  if (const yaml::Node* message = c.find("message"); res.passed && message != nullptr) {
    const bool told =
        message->is_scalar() && !message->scalar.empty() && !result &&
        std::any_of(result.refusals().begin(), result.refusals().end(), [&](const auto& r) {
          return r.message.find(message->scalar) != std::string::npos;
        });
    if (!told) {
      res.passed = false;
      res.detail = "expected a refusal whose message holds '" + message->scalar + "'";
      for (const auto& r : result ? util::Refusals{} : result.refusals()) {
        res.detail += "\n    " + r.rule + ": " + r.message;
      }
      return res;
    }
  }
  if (!res.passed) {
    res.detail = "expected '" + expect->scalar + "', got '" + got + "'";
    for (const auto& r : result ? util::Refusals{} : result.refusals()) {
      res.detail += "\n    " + r.location->to_string() + ": " + r.rule + ": " + r.message;
    }
  }
  return res;
}

}  // namespace

std::vector<FixtureResult> run_fixtures(const std::string& plugin_source_dir,
                                        const plugins::Registry& registry) {
  std::vector<FixtureResult> out;
  std::filesystem::path dir = std::filesystem::path(plugin_source_dir) / "fixtures";
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    auto ext = e.path().extension();
    if (ext == ".yml" || ext == ".yaml") {
      files.push_back(e.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    auto doc = yaml::load_file(f, f);
    if (!doc) {
      out.push_back({f, "(load)", false, doc.error().to_string()});
      continue;
    }
    const yaml::Node* cases = doc->find("cases");
    if (cases == nullptr || !cases->is_sequence()) {
      out.push_back({f, "(load)", false, "a fixture file holds 'cases:' (a list)"});
      continue;
    }
    for (const auto& c : cases->items) {
      out.push_back(run_case(f, c, registry));
    }
  }
  if (out.empty()) {
    out.push_back(
        {dir.string(), "(no fixtures)", false, "a plugin without fixtures fails the check"});
  }
  return out;
}

}  // namespace reviewer::plan

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/cli/author_plugins.h"
#include "core/cli/commands.h"
#include "core/cli/plugin_rule_catalogue.h"
#include "core/plan/event_facts.h"
#include "core/plan/matrix.h"
#include "core/plan/planner.h"
#include "core/plugins/registry.h"
#include "core/report/exit_code.h"
#include "core/report/render.h"
#include "core/yaml/bounded_loader.h"

namespace reviewer::cli {
namespace {

struct PlanOptions {
  std::string workflow;
  std::string job;
  std::string base;
  std::string format = "text";
  std::vector<std::string> matrix;
  bool pinned_only = false;
  std::string event_file;
  bool same_repository = false;
  std::string repository;  // where local actions are read; by default the workflow's repository
  std::vector<std::string> plugin_dirs;  // an author's plugins, besides the installed ones
};

// The repository a workflow file stands in: the directory holding its `.github/workflows`, or
// the current directory.
std::string repository_of(const std::string& workflow) {
  const std::string marker = ".github/workflows/";
  const auto at = workflow.rfind(marker);
  if (at == std::string::npos || at == 0) {
    return ".";
  }
  return workflow.substr(0, at);
}

void print_steps(const std::vector<plan::PlannedStep>& steps, const std::string& indent) {
  for (const auto& s : steps) {
    std::cout << indent << s.step.location.to_string() << ": " << (s.skip ? "skip" : "run ") << " ["
              << (s.plugin != nullptr ? s.plugin->name
                  : s.local           ? "local action"
                                      : "never")
              << "] " << (s.step.name ? *s.step.name : s.step.action);
    if (!s.release.empty()) {
      std::cout << " (" << s.step.action << "@" << s.tag << " taken as " << s.release
                << ", the newest reviewed release it can name"
                << (s.reviewed_on.empty() ? "" : ", reviewed " + s.reviewed_on) << ")";
    }
    if (s.step.timeout_minutes) {
      std::cout << " (timeout " << *s.step.timeout_minutes << " min)";
    }
    if (s.condition.kind == plan::Condition::Kind::kNever) {
      std::cout << " (never: if " << s.condition.written << " is false)";
    } else if (!s.condition.written.empty()) {
      std::cout << " (if " << s.condition.written << ")";
    }
    std::cout << "\n";
    if (s.local) {
      std::cout << indent << "  " << s.local->file << " (github.action_path "
                << s.local->action_path << ")\n";
      print_steps(s.local->steps, indent + "  ");
    }
  }
}

// The jobs in run order; a called workflow's under the job that calls it, named as GitHub names
// them ("caller / called").
void print_jobs(const std::vector<plan::PlannedJob>& jobs, const std::string& prefix,
                const std::string& indent) {
  for (const auto& job : jobs) {
    if (job.called) {
      std::cout << indent << "job " << prefix << job.id << " calls " << job.called->file
                << (job.condition.written.empty() ? "" : " (if " + job.condition.written + ")")
                << (job.matrix_label.empty() ? "" : " (matrix " + job.matrix_label + ")") << "\n";
      print_jobs(job.called->jobs, prefix + job.id + " / ", indent + "  ");
      continue;
    }
    std::cout << indent << "job " << prefix << job.id << " (timeout " << job.timeout_minutes
              << " min"
              << (job.timeout_minutes_written != 0
                      ? " as on GitHub-hosted runners, " +
                            std::to_string(job.timeout_minutes_written) + " written"
                      : std::string())
              << ", fetch-depth " << job.fetch_depth
              << (job.condition.written.empty() ? "" : ", if " + job.condition.written)
              << (job.matrix_label.empty() ? "" : ", matrix " + job.matrix_label) << ")\n";
    print_steps(job.steps, indent + "  ");
  }
}

void print_text(const plan::Plan& p) {
  std::cout << "plan: job '" << p.job << "' of " << p.workflow_file << " into '" << p.base << "'\n";
  print_jobs(p.jobs, "", "");
  for (const auto& pin : p.pins) {
    std::cout << "pin " << pin.runtime << " " << pin.version << " (" << pin.location.to_string()
              << ")" << (pin.runner_default.empty() ? "" : ": " + pin.runner_default)
              << (pin.asked.empty() ? "" : ": the runner's tool cache line for '" + pin.asked + "'")
              << "\n";
  }
}

int run(const PlanOptions& o) {
  auto loaded = open_plugins(o.plugin_dirs);
  if (!loaded) {
    for (const auto& r : loaded.refusals()) {
      std::cerr << report::to_text(r) << "\n";
    }
    return report::to_int(report::ExitCode::kRefused);
  }
  auto choice = plan::parse_matrix_choice(o.matrix);
  if (!choice) {
    std::cerr << report::to_text(choice.error()) << "\n";
    return report::to_int(report::ExitCode::kUsage);
  }
  expr::Object event;
  if (!o.event_file.empty()) {
    auto facts = plan::read_event_file(o.event_file, o.base);
    if (!facts) {
      std::cerr << report::to_text(facts.error()) << "\n";
      return report::to_int(report::ExitCode::kUsage);
    }
    event = std::move(*facts);
  }
  const plan::WorktreeFiles files(o.repository.empty() ? repository_of(o.workflow) : o.repository);
  // Read once, here: the excerpts under each refusal come from the same bytes the planner read.
  auto text = yaml::read_bounded(o.workflow, o.workflow);
  const plan::PlanRequest request{o.workflow,    o.job,  o.base,           *choice,
                                  o.pinned_only, &files, std::move(event), o.same_repository};
  auto result =
      text ? plan::plan_text(*text, request, *loaded) : util::Result<plan::Plan>(text.refusals());
  const std::string_view source = text ? std::string_view(*text) : std::string_view();
  const report::Refusals refusals = result ? report::Refusals{} : result.refusals();
  if (o.format == "json") {
    nlohmann::json j = result ? nlohmann::json{{"plan", plan::to_json(*result)}}
                              : nlohmann::json{{"refusals", report::to_json(refusals)}};
    std::cout << j.dump(2) << "\n";
  } else if (o.format == "sarif") {
    std::map<std::string, std::string> own;
    auto rules = plugin_rule_entries(*loaded);
    if (!rules) {
      for (const auto& r : rules.refusals()) {
        std::cerr << report::to_text(r) << "\n";
      }
      return report::to_int(report::ExitCode::kRefused);
    }
    for (const auto& [id, entry] : *rules) {
      own.emplace(id, entry.text);
    }
    std::cout << report::to_sarif(refusals, REVIEWER_VERSION, o.workflow, source, own).dump(2)
              << "\n";
  } else if (result) {
    print_text(*result);
  } else {
    for (const auto& r : refusals) {
      std::cout << report::to_text(r, o.workflow, source) << "\n";
    }
  }
  return report::to_int(result ? report::ExitCode::kOk : report::ExitCode::kRefused);
}

}  // namespace

void add_pull_request_options(CLI::App* sub, bool& pinned_only, bool& same_repository,
                              std::string& event_file) {
  sub->add_flag("--pinned-only", pinned_only,
                "accept actions at reviewed commit SHAs only, not release tags");
  sub->add_flag("--same-repository", same_repository,
                "the pull request comes from the repository itself: its run has the repository's "
                "secrets, so reading one is refused (default: a fork's, whose secrets are empty)");
  sub->add_option("--event", event_file,
                  "a JSON file of the pull request's github fields (repository, head_ref, sha, "
                  "event: the pull_request payload, ...) that expressions may read");
}

void register_plan_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<PlanOptions>();
  auto* sub = app.add_subcommand("plan", "plan a job of a workflow, or list every refusal");
  sub->add_option("--workflow", opts->workflow, "workflow file")->required();
  sub->add_option("--job", opts->job, "job id")->required();
  sub->add_option("--base", opts->base, "base branch of the pull request")->required();
  sub->add_option("--format", opts->format, "text, json or sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  sub->add_option("--matrix", opts->matrix,
                  "NAME=VALUE: the matrix combination to plan (repeat for each key)");
  add_pull_request_options(sub, opts->pinned_only, opts->same_repository, opts->event_file);
  sub->add_option("--repository", opts->repository,
                  "the repository whose local actions the steps call (default: the directory "
                  "holding the workflow's .github/workflows)");
  sub->add_option("--plugin-dir", opts->plugin_dirs,
                  "also load the built plugins of this directory (with its MANIFEST.sha256, as "
                  "`sha256sum *.so` writes it); repeat for each directory");
  sub->callback([opts, &exit_code] { exit_code = run(*opts); });
}

}  // namespace reviewer::cli

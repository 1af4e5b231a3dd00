// `reviewer resolve`: reads a worktree's declarations (and pins), prints the one matrix image
// they select or every refusal. Exit 0 resolved, 2 usage, 3 refused.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/cli/commands.h"
#include "core/plan/matrix.h"
#include "core/plan/planner.h"
#include "core/plan/runner_image.h"
#include "core/plugins/registry.h"
#include "core/report/exit_code.h"
#include "core/report/render.h"
#include "core/report/source_excerpt.h"
#include "core/resolve/node_schedule.h"
#include "core/resolve/resolver.h"
#include "core/resolve/runtime_catalogue.h"
#include "core/resolve/runtime_set.h"
#include "core/util/install_layout.h"

namespace reviewer::cli {
namespace {

namespace fs = std::filesystem;

struct ResolveArgs {
  std::string matrix;
  std::string workflow;
  std::string job;
  std::string base = "main";
  std::vector<std::string> pins;
  std::vector<std::string> combination;  // NAME=VALUE of the job's matrix
  std::string dir;
  std::string format = "text";
  bool runtime_set = false;
  std::string catalogue;
};

// The same trusted matrix the launcher uses: <prefix>/share/reviewer (or the build tree's).
std::string default_matrix_path() { return util::data_directory() + "/runtime-matrix.json"; }

int usage(const std::string& message) {
  std::cerr << "reviewer resolve: " << message << '\n';
  return report::to_int(report::ExitCode::kUsage);
}

int print_refusals(const report::Refusals& refusals, const std::string& format) {
  if (format == "json") {
    std::cout << nlohmann::json{{"refusals", report::to_json(refusals)}}.dump(2) << '\n';
  } else {
    for (const auto& r : refusals) {
      std::cout << report::to_text(r) << '\n';
    }
  }
  return report::to_int(report::ExitCode::kRefused);
}

std::vector<int> cached_node_lines() {
  std::vector<int> lines;
  for (std::string_view line : plan::kRunnerImage.cached_node_lines) {
    lines.push_back(std::stoi(std::string(line)));
  }
  return lines;
}

std::string release_of(const resolve::CatalogueRelease* r) {
  return r == nullptr ? std::string("none") : r->version;
}

// The exact runtimes the trusted catalogue gives the pins on today's date, with each decision on
// stderr: what a review provides once runtimes are provisioned per review (docs/runtimes.md).
int print_runtime_set(const ResolveArgs& args, const std::vector<resolve::Pin>& pins) {
  const std::string path =
      args.catalogue.empty() ? util::data_directory() + "/runtimes.json" : args.catalogue;
  auto catalogue = resolve::load_runtime_catalogue(path);
  if (!catalogue) {
    return print_refusals(catalogue.refusals(), args.format);
  }
  auto set =
      resolve::resolve_runtime_set(pins, *catalogue, resolve::today_utc(), cached_node_lines());
  if (!set) {
    return print_refusals(set.refusals(), args.format);
  }
  for (const auto& decision : set->decisions) {
    std::cerr << "reviewer resolve: " << report::printable(decision) << '\n';
  }
  const nlohmann::json out = {{"node", release_of(set->node)},
                              {"npm", release_of(set->npm)},
                              {"corepack", release_of(set->corepack)},
                              {"bun", release_of(set->bun)},
                              {"decisions", set->decisions}};
  if (args.format == "json") {
    std::cout << out.dump(2) << '\n';
  } else {
    std::cout << "node " << release_of(set->node) << " (npm " << release_of(set->npm)
              << ", corepack " << release_of(set->corepack) << "), bun " << release_of(set->bun)
              << '\n';
  }
  return report::to_int(report::ExitCode::kOk);
}

int run_resolve(const ResolveArgs& args) {
  if (args.workflow.empty() != args.job.empty()) {
    return usage("--workflow and --job go together");
  }
  std::vector<resolve::Pin> pins;
  if (!args.workflow.empty()) {
    // The pins of the planned job and the jobs it needs, through the same plugin host and
    // planner as `reviewer plan` and the launcher; a workflow that cannot be planned has no pins
    // worth trusting, so its refusals are the answer.
    auto loaded = plugins::Registry::open(util::plugin_directory());
    if (!loaded) {
      return print_refusals(loaded.refusals(), args.format);
    }
    auto choice = plan::parse_matrix_choice(args.combination);
    if (!choice) {
      return usage(choice.error().message);
    }
    const plan::WorktreeFiles files(args.dir);
    auto planned = plan::plan_file(
        args.workflow, {args.workflow, args.job, args.base, *choice, false, &files}, *loaded);
    if (!planned) {
      return print_refusals(planned.refusals(), args.format);
    }
    pins = plan::resolver_pins(*planned);
  }
  for (const auto& spec : args.pins) {
    const std::size_t at = spec.find('@');
    if (at == std::string::npos || at == 0 || at + 1 == spec.size()) {
      return usage("--pin takes runtime@version (e.g. node@22.22.1), not \"" + spec + "\"");
    }
    pins.push_back({spec.substr(0, at), spec.substr(at + 1), util::SourceLocation{"--pin"}});
  }
  std::error_code ec;
  if (!fs::is_directory(args.dir, ec)) {
    return usage("\"" + args.dir + "\" is not a directory");
  }

  if (args.runtime_set) {
    return print_runtime_set(args, pins);
  }
  const std::string matrix_path = args.matrix.empty() ? default_matrix_path() : args.matrix;
  auto matrix = resolve::load_runtime_table(matrix_path);
  if (!matrix) {
    return print_refusals({report::Refusal{matrix.error().rule, matrix.error().message,
                                           util::SourceLocation{matrix_path}}},
                          args.format);
  }
  auto result = resolve::resolve(args.dir, *matrix, pins);
  if (!result) {
    return print_refusals(result.refusals(), args.format);
  }
  const auto& resolution = *result;
  if (args.format == "json") {
    nlohmann::json declarations = nlohmann::json::array();
    for (const auto& d : resolution.declarations) {
      declarations.push_back({{"tool", d.tool},
                              {"value", d.value},
                              {"source", d.source},
                              {"location", d.location.to_string()},
                              {"range", d.range.to_string().empty() ? "*" : d.range.to_string()}});
    }
    std::cout << nlohmann::json{{"image", resolution.image},
                                {"runtimes", resolution.runtimes},
                                {"declarations", declarations},
                                {"notes", resolution.notes}}
                     .dump(2)
              << '\n';
  } else {
    for (const auto& note : resolution.notes) {
      std::cerr << "reviewer resolve: " << report::printable(note) << '\n';
    }
    std::cout << resolution.image << '\n';
  }
  return report::to_int(report::ExitCode::kOk);
}

}  // namespace

void register_resolve_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ResolveArgs>();
  CLI::App* sub = app.add_subcommand(
      "resolve", "select the one runtime-matrix image a worktree's declarations and pins need");
  sub->add_option("--matrix", args->matrix,
                  "the runtime matrix (default: <prefix>/share/reviewer/runtime-matrix.json)");
  sub->add_option("--workflow", args->workflow,
                  "workflow file whose planned job's pins (and its needs') to add");
  sub->add_option("--job", args->job, "the job id in --workflow");
  sub->add_option("--base", args->base, "base branch the workflow is planned for (default main)");
  sub->add_option("--combination", args->combination,
                  "NAME=VALUE: the combination of a matrix job (repeat per key)");
  sub->add_option("--pin", args->pins, "an exact runtime pin runtime@version, e.g. node@22.22.1")
      ->allow_extra_args(false);
  sub->add_option("--format", args->format, "output format")
      ->check(CLI::IsMember({"text", "json"}));
  sub->add_flag("--runtime-set", args->runtime_set,
                "instead of an image, the exact runtimes the trusted catalogue gives the pins "
                "today (node with its bundled npm and corepack, bun)");
  sub->add_option("--catalogue", args->catalogue,
                  "the runtime catalogue (default: <prefix>/share/reviewer/runtimes.json)");
  sub->add_option("DIR", args->dir, "the worktree")->required();
  sub->callback([args, &exit_code] { exit_code = run_resolve(*args); });
}

}  // namespace reviewer::cli

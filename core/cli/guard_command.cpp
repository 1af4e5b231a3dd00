// `reviewer guard [DIR]`: the launcher's pre-build git and worktree guards, run by hand.

#include <stdlib.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/cli/commands.h"
#include "core/git/guards.h"
#include "core/report/exit_code.h"
#include "core/report/render.h"

namespace reviewer::cli {
namespace {

struct GuardOptions {
  std::string dir = ".";
  int fetch_depth = 1;
  std::string format = "text";
};

// A fresh, empty HOME for one run (the job's HOME in the launcher), removed afterwards.
class FreshHome {
 public:
  FreshHome() {
    std::string tmpl = "/tmp/reviewer-guard-home-XXXXXX";
    if (::mkdtemp(tmpl.data()) != nullptr) {
      path_ = tmpl;
    }
  }
  FreshHome(const FreshHome&) = delete;
  FreshHome& operator=(const FreshHome&) = delete;
  ~FreshHome() {
    if (!path_.empty()) {
      ::rmdir(path_.c_str());
    }
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

int run(const GuardOptions& o) {
  FreshHome home;
  if (home.path().empty()) {
    std::cerr << "reviewer guard: cannot create a temporary HOME\n";
    return report::to_int(report::ExitCode::kInternal);
  }
  report::Refusals refusals;
  auto baseline = git::pin_baseline(o.dir, home.path());
  if (!baseline) {
    const util::Refusal& e = baseline.error();
    refusals.push_back({e.rule, e.message, util::SourceLocation{o.dir, 0, 0}});
  } else {
    util::append_refusals(refusals,
                          git::check_before_job(o.dir, home.path(), *baseline, o.fetch_depth));
  }
  if (o.format == "json") {
    const nlohmann::json j{{"worktree", o.dir},
                           {"fetch_depth", o.fetch_depth},
                           {"ok", refusals.empty()},
                           {"refusals", report::to_json(refusals)}};
    std::cout << j.dump(2) << "\n";
  } else {
    for (const auto& r : refusals) {
      std::cout << report::to_text(r) << "\n";
    }
    if (refusals.empty()) {
      std::cout << o.dir << ": clean\n";
    }
  }
  return report::to_int(refusals.empty() ? report::ExitCode::kOk : report::ExitCode::kRefused);
}

}  // namespace

void register_guard_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<GuardOptions>();
  auto* sub = app.add_subcommand("guard",
                                 "run the launcher's pre-build git and worktree guards on a clone");
  sub->add_option("DIR", opts->dir, "the worktree (default: the current directory)");
  sub->add_option("--fetch-depth", opts->fetch_depth, "1 (default) or 0")
      ->check(CLI::IsMember({0, 1}));
  sub->add_option("--format", opts->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  sub->callback([opts, &exit_code] { exit_code = run(*opts); });
}

}  // namespace reviewer::cli

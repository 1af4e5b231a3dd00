#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/step_runner.h"
#include "core/launch/worktree_guard.h"

namespace reviewer::launch::testing {

// A StepRunner that spawns nothing, as ninja's fake CommandRunner: it reads the step's script
// (the last argument) and acts out what its first word says.
//   exit N      the step exits N          signal N    a signal ends it
//   timeout     it hits its deadline      no-spawn    it cannot be started
//   interrupt   the launcher is told to stop while the step runs
//   leave NAME  exits 0 but leaves NAME running, for kill_leftovers
//   offline N   exits N, its output having shown npm's failed registry request
// Anything else exits 0. Every spec it was given is kept, in order.
class FakeRunner final : public exec::StepRunner {
 public:
  exec::StepResult run(const exec::StepSpec& spec) override {
    specs.push_back(spec);
    std::ifstream in(spec.argv.back());
    std::string word;
    std::string arg;
    in >> word >> arg;
    exec::StepResult r;
    r.started = true;
    r.exit_code = 0;
    if (word == "exit") {
      r.exit_code = std::stoi(arg);
    } else if (word == "signal") {
      r.exit_code = -1;
      r.signal = std::stoi(arg);
    } else if (word == "timeout") {
      r.exit_code = -1;
      r.signal = 9;
      r.timed_out = true;
      r.deadline_reason = spec.deadline_reason;
    } else if (word == "no-spawn") {
      r = exec::StepResult{};
      r.spawn_error = "cannot spawn /bin/bash: No such file or directory";
    } else if (word == "interrupt") {
      interrupted_ = true;
      r.exit_code = -1;
      r.signal = 2;
      r.interrupted = true;
    } else if (word == "offline") {
      r.exit_code = std::stoi(arg);
      r.network_sign =
          "npm error request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo "
          "EAI_AGAIN registry.npmjs.org";
    } else if (word == "leave") {
      leftovers_.push_back({4242, 4242, arg});
    }
    return r;
  }

  std::vector<exec::ProcessInfo> kill_leftovers() override {
    ++kill_calls;
    return std::exchange(leftovers_, {});
  }

  bool interrupted() override { return interrupted_; }

  // The labels of the steps run, in order ("[job #2 name] ").
  std::vector<std::string> labels() const {
    std::vector<std::string> out;
    for (const auto& s : specs) {
      out.push_back(s.label);
    }
    return out;
  }

  std::vector<exec::StepSpec> specs;
  int kill_calls = 0;

 private:
  bool interrupted_ = false;
  std::vector<exec::ProcessInfo> leftovers_;
};

// A WorktreeGuard with no repository: a shallow one-commit clone, and the refusals a test plants
// for the n-th before_job / after_job call (0-based).
class FakeGuard final : public WorktreeGuard {
 public:
  util::Status before_job(const std::string& home, int fetch_depth, bool) override {
    before.emplace_back(home, fetch_depth);
    return util::status_of(take(refuse_before, before_calls++));
  }
  void check_first_job_ahead(const std::string& home, int fetch_depth) override {
    ahead.emplace_back(home, fetch_depth);
  }
  util::Status after_job() override { return util::status_of(take(refuse_after, after_calls++)); }
  std::optional<plugins::HistoryShape> history_shape() override {
    return plugins::HistoryShape{true, 1, 0};
  }

  std::map<int, report::Refusals> refuse_before;
  std::map<int, report::Refusals> refuse_after;
  int before_calls = 0;
  int after_calls = 0;
  // The HOME and fetch depth of each before_job, and of check_first_job_ahead.
  std::vector<std::pair<std::string, int>> before;
  std::vector<std::pair<std::string, int>> ahead;

 private:
  static report::Refusals take(std::map<int, report::Refusals>& planted, int call) {
    auto it = planted.find(call);
    return it == planted.end() ? report::Refusals{} : it->second;
  }
};

// The loop's own lines.
class CapturedLog final : public exec::LogSink {
 public:
  void line(std::string_view text) override { lines.emplace_back(text); }
  std::vector<std::string> lines;
};

}  // namespace reviewer::launch::testing

// Processes a step leaves behind, in every way bash offers to get away, are killed and reaped
// when the job ends. Death is measured by a witness (a FIFO every escaped process holds open
// for writing), not by PIDs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/exec/process_table.h"
#include "core/exec/supervisor.h"
#include "tests/unit/exec/bash_steps.h"

namespace reviewer::exec {
namespace {

using testing::Scratch;
using testing::Witness;

constexpr KillPolicy kQuick{std::chrono::milliseconds(150), std::chrono::milliseconds(150)};

struct Escape {
  const char* name;
  const char* script;  // $W is the witness FIFO; every escaped process writes one byte to it
};

const Escape kEscapes[] = {
    {"setsid", "setsid sh -c 'echo x >&3; exec sleep 1000' 3>\"$W\" &\nsleep 0.2\n"},
    {"nohup", "nohup sh -c 'echo x >&3; exec sleep 1000' 3>\"$W\" >/dev/null 2>&1 &\nsleep 0.2\n"},
    {"double_fork", "( ( echo x >&3; exec sleep 1000 ) 3>\"$W\" & ) \nsleep 0.2\n"},
    {"disown", "sh -c 'echo x >&3; exec sleep 1000' 3>\"$W\" &\ndisown\nsleep 0.2\n"},
    {"setsid_double_fork_ignoring_signals",
     "setsid sh -c 'trap \"\" INT TERM HUP; ( trap \"\" INT TERM HUP; echo x >&3; "
     "exec sleep 1000 ) 3>\"$W\" & exit 0' &\nsleep 0.2\n"},
};

class Escapes : public ::testing::TestWithParam<Escape> {};

TEST_P(Escapes, AreKilledWhenTheJobEnds) {
  Scratch s;
  Witness witness(s.dir());
  Supervisor sup(s.log_fd(), kQuick);
  auto spec = s.step(GetParam().script);
  spec.env.push_back("W=" + witness.path());
  auto r = sup.run(spec);
  ASSERT_TRUE(r.success()) << s.log();
  EXPECT_FALSE(witness.all_writers_gone())
      << "the escape did not happen, so the test proves nothing";
  auto killed = sup.kill_leftovers();
  EXPECT_FALSE(killed.empty());
  EXPECT_TRUE(witness.all_writers_gone());
  EXPECT_TRUE(children_of(::getpid()).empty()) << "a zombie or stray is left";
}

INSTANTIATE_TEST_SUITE_P(All, Escapes, ::testing::ValuesIn(kEscapes),
                         [](const auto& p) { return std::string(p.param.name); });

TEST(Escapes, AStepKilledAtItsDeadlineTakesItsBackgroundJobsAlong) {
  Scratch s;
  Witness witness(s.dir());
  Supervisor sup(s.log_fd(), kQuick);
  auto spec = s.step("(echo x >&3; exec sleep 1000) 3>\"$W\" &\nsleep 1000\n");
  spec.env.push_back("W=" + witness.path());
  spec.deadline = Clock::now() + std::chrono::milliseconds(300);
  auto r = sup.run(spec);
  EXPECT_TRUE(r.timed_out);
  sup.kill_leftovers();
  EXPECT_TRUE(witness.all_writers_gone());
}

TEST(Escapes, NothingLeftMeansNothingReported) {
  Scratch s;
  Supervisor sup(s.log_fd(), kQuick);
  ASSERT_TRUE(sup.run(s.step("true\n")).success());
  EXPECT_TRUE(sup.kill_leftovers().empty());
}

}  // namespace
}  // namespace reviewer::exec

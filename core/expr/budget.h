#pragma once

#include <cstddef>
#include <string>

#include "core/util/refusal.h"

namespace reviewer::expr {

// What expressions may build (issue 37: eight nested format('{0}{0}...') in a 555-byte workflow
// took 1.2 GB on the host before any sandbox existed, sixteen copies a level bad_alloc). GitHub
// bounds an expression's text to 21,000 characters and a job's outputs to 1 MB, so a real
// workflow's expressions read and make values of kilobytes; the largest plan-time value, toJSON
// of a described event (96 KiB compact), is under 300 KiB. The bounds are far above that and far
// below what the host can lose.
//
// One string: 1 MiB, more than a job's whole outputs.
inline constexpr std::size_t kMaxStringBytes = std::size_t{1} << 20;
// One array or object: 100,000 items, more than a 1 MB output holds at ten bytes an item.
inline constexpr std::size_t kMaxItems = 100'000;
// All one evaluation builds, counted as it is built (whether freed since or not): 32 MiB, half
// of the 64 MiB that `reviewer plan` stays under (tests/bench/plan_memory.sh).
inline constexpr std::size_t kMaxBuiltBytes = std::size_t{32} << 20;
// All the evaluations of one planning pass build together (SharedBudget), the strings they yield
// included: 16 MiB. The planner keeps every field's value and copies it once more while it
// merges a job's env (measured: 14,000 aliases of a field reading the event's 90 KB body kept
// twice the bytes counted), so this is half of what a lone evaluation may build. The largest
// real use, toJSON(github.event) of the largest description a host may give (96 KiB compact),
// builds and keeps about half a mebibyte: thirty of them fit.
inline constexpr std::size_t kMaxPlanBytes = std::size_t{16} << 20;
// What an item of an array or object costs beyond its text: its Value and the shared block of
// what it holds, rounded up (an object's entry costs it four times: fromJSON() holds each key in
// two lists and two indexes while it reads).
inline constexpr std::size_t kItemBytes = 64;

class SharedBudget;

// Counts what one evaluation builds, before each piece is built. A method returns false when the
// piece would cross a bound (nothing is counted then); refusal() names the bound, and the
// builder stops and returns it.
class Budget {
 public:
  Budget();  // also draws on this thread's SharedBudget, when one is open

  // `added` more bytes of a string that is then `length` bytes long.
  bool add_string(std::size_t length, std::size_t added);
  // One more item of an array or object that then holds `count` items; it costs `bytes`.
  bool add_item(std::size_t count, std::size_t bytes);
  // `bytes` of anything else: a runtime function's answer, the value the caller keeps.
  bool add_bytes(std::size_t bytes);

  // `expression-too-large`: `what` (e.g. "format()") crossed the bound last refused.
  util::Refusal refusal(const std::string& what) const;

 private:
  enum class Crossed { kNone, kString, kItems, kBuilt, kShared };
  bool spend(std::size_t bytes);

  std::size_t built_ = 0;
  SharedBudget* shared_;
  Crossed crossed_ = Crossed::kNone;
};

// While one is alive, every evaluation on this thread also counts towards one kMaxPlanBytes. A
// planning pass opens one: it evaluates its fields one by one and keeps their values, and YAML
// aliases can repeat one field up to the 50,000-node bound, so a bound per evaluation alone
// would let a workflow keep thousands of times the bound. One opened inside another (a pass
// inside a pass) draws on the outer one.
class SharedBudget {
 public:
  SharedBudget();
  ~SharedBudget();
  SharedBudget(const SharedBudget&) = delete;
  SharedBudget& operator=(const SharedBudget&) = delete;

 private:
  friend class Budget;
  std::size_t built_ = 0;
  bool outermost_;
};

}  // namespace reviewer::expr

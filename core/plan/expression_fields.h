#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/expr/evaluator.h"
#include "core/expr/value.h"
#include "core/plan/findings.h"
#include "core/plan/job_contexts.h"

namespace reviewer::plan {

// One workflow value that may hold `${{ }}` expressions, as the planner read it.
struct FieldValue {
  // Known at plan time: the value of a lone `${{ }}` keeps its kind (a boolean stays one);
  // text with expressions inside becomes a string. nullopt when `run_time` is set.
  std::optional<expr::Value> value;
  // It reads what only the run knows: the launcher evaluates the text as written, once, where
  // the runner would (never a partly folded text, whose substituted values could hold `${{`).
  bool run_time = false;
};

// Reads `text` standing in `field`. Refuses expression-invalid (it does not parse, or names a
// context or function `field` cannot read), expression-value-unknown (it reads a value the
// review cannot know), expression-error and expression-too-large (it fails to evaluate, or
// builds past the bounds of core/expr/budget.h) and, unless `run_time_allowed`,
// expression-at-run-time. `what` names the value in messages.
std::optional<FieldValue> read_field(std::string_view text, Field field,
                                     const expr::Object& contexts, bool run_time_allowed,
                                     const std::string& what, const util::SourceLocation& where,
                                     Findings& findings);

// An `if:` as the planner decided it.
struct Condition {
  enum class Kind {
    kSuccess,     // no `if:`, or one true at plan time apart from its implicit success()
    kNever,       // false at plan time: the step or job is skipped whatever happens before it
    kExpression,  // evaluated by the launcher: `expression` (without `${{ }}`)
  };
  Kind kind = Kind::kSuccess;
  std::string expression;
  std::string written;  // the `if:` as written, for the plan and the log
};

// Reads an `if:` (a bare expression, or one `${{ }}`; text around it makes it a string, true
// when not empty, as on GitHub). Refusals as read_field, run-time values allowed.
std::optional<Condition> read_condition(std::string_view text, Field field,
                                        const expr::Object& contexts, const std::string& what,
                                        const util::SourceLocation& where, Findings& findings);

// Evaluates a condition's expression as the runner does: one that calls no status function is
// `success() && (expression)`. Errors: expression-invalid, expression-error.
util::Result<bool> evaluate_condition(const std::string& expression, Field field,
                                      const expr::Object& contexts, expr::Runtime& runtime);

// Evaluates a value's text (literal text and `${{ }}` parts) over `contexts`: a lone
// expression's value as it is, otherwise the parts joined as a string.
util::Result<expr::Value> evaluate_field(std::string_view text, Field field,
                                         const expr::Object& contexts, expr::Runtime* runtime);

}  // namespace reviewer::plan

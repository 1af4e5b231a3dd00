#include "core/plan/expression_fields.h"

#include <algorithm>

#include "core/expr/parser.h"
#include "core/expr/template.h"
#include "core/expr/text_case.h"
#include "core/plan/event_facts.h"
#include "core/plan/known_false.h"
#include "core/util/text.h"
#include "core/workflow/expression.h"

namespace reviewer::plan {
namespace {

bool calls_status_function(const expr::References& refs) {
  return std::any_of(refs.functions.begin(), refs.functions.end(), [](const std::string& f) {
    return f == "success" || f == "failure" || f == "always" || f == "cancelled";
  });
}

// For a github field the host's event description may give: how to make it known; for a secret
// of a same-repository pull request (no `secrets` in `contexts`): why it is not.
std::string host_can_describe(const std::string& what, const expr::Object& contexts) {
  if (what.starts_with("secrets.") && contexts.find("secrets") == nullptr) {
    return "; the host reviews a same-repository pull request, whose run has the repository's "
           "secrets";
  }
  if (!what.starts_with("github.")) {
    return "";
  }
  const std::string field = what.substr(7);
  for (std::string_view f : kEventFields) {
    if (expr::lower(f) == expr::lower(field)) {
      return "; a host that describes the pull request gives it (reviewer review --event FILE)";
    }
  }
  return "";
}

// Parses every expression part and classifies what they read together; nullopt after a
// refusal.
std::optional<Classified> check_parts(const std::vector<expr::TemplatePart>& parts, Field field,
                                      const expr::Object& contexts, const std::string& what,
                                      const util::SourceLocation& where, Findings& f) {
  Classified all;
  for (const auto& p : parts) {
    if (!p.expression) {
      continue;
    }
    auto node = expr::parse(p.text, scope_for(field));
    if (!node) {
      f.refuse("expression-invalid", what + ": " + node.error().message + " in " + quote(p.text),
               where);
      return std::nullopt;
    }
    auto c = classify(expr::references(**node), contexts);
    if (c.knowledge > all.knowledge) {
      all = c;
    }
  }
  if (all.knowledge == Knowledge::kUnknown) {
    f.refuse("expression-value-unknown",
             what + " reads " + all.what +
                 ", which only the real run knows (the review knows the pull request event, the "
                 "matrix, the strategy, the runner's os and arch, and empty secrets)" +
                 host_can_describe(all.what, contexts),
             where);
    return std::nullopt;
  }
  return all;
}

// A field that parsed but did not evaluate: GitHub's evaluation error, or the evaluator's own
// refusal to build past its bounds (core/expr/budget.h), which is no error GitHub would give.
void refuse_evaluation(const util::Refusal& r, const std::string& what,
                       const util::SourceLocation& where, Findings& f) {
  if (r.kind == util::RefusalKind::kBound) {
    f.refuse("expression-too-large", what + ": " + r.message, where);
  } else {
    f.refuse("expression-error", what + ": " + r.message, where);
  }
}

util::Result<std::unique_ptr<expr::Node>> parse_in(std::string_view text, Field field) {
  return expr::parse(text, scope_for(field));
}

// An `if:` that reads what the review cannot know, yet is false whatever that is
// (known_false.h): the step or job never runs, as on CI, instead of being refused.
bool never_whatever_unknown(const std::string& expression, Field field,
                            const expr::Object& contexts) {
  auto node = parse_in(expression, field);
  if (!node) {
    return false;
  }
  const expr::References refs = expr::references(**node);
  return !calls_status_function(refs) &&
         classify(refs, contexts).knowledge == Knowledge::kUnknown &&
         false_whatever_unknown(**node, contexts);
}

}  // namespace

util::Result<expr::Value> evaluate_field(std::string_view text, Field field,
                                         const expr::Object& contexts, expr::Runtime* runtime) {
  auto parts = expr::split_template(text);
  if (!parts) {
    return parts.refusals();
  }
  const bool lone = expr::is_single_expression(*parts);
  std::string joined;
  for (const auto& p : *parts) {
    if (!p.expression) {
      if (!lone) {
        joined += p.text;
      }
      continue;
    }
    auto node = parse_in(p.text, field);
    if (!node) {
      return node.refusals();
    }
    auto v = expr::evaluate(**node, contexts, runtime);
    if (!v) {
      return v.refusals();
    }
    if (lone) {
      return *v;
    }
    joined += v->coerce_string();
  }
  return expr::Value::string(std::move(joined));
}

std::optional<FieldValue> read_field(std::string_view text, Field field,
                                     const expr::Object& contexts, bool run_time_allowed,
                                     const std::string& what, const util::SourceLocation& where,
                                     Findings& f) {
  if (!workflow::contains_expression(text)) {
    return FieldValue{expr::Value::string(std::string(text)), false};
  }
  auto parts = expr::split_template(text);
  if (!parts) {
    f.refuse("expression-invalid", what + ": " + parts.error().message, where);
    return std::nullopt;
  }
  auto c = check_parts(*parts, field, contexts, what, where, f);
  if (!c) {
    return std::nullopt;
  }
  if (c->knowledge == Knowledge::kRunTime) {
    if (!run_time_allowed) {
      f.refuse("expression-at-run-time",
               what + " reads " + c->what +
                   ", known only while the job runs, but the review must know it before",
               where);
      return std::nullopt;
    }
    return FieldValue{std::nullopt, true};
  }
  auto v = evaluate_field(text, field, contexts, nullptr);
  if (!v) {
    refuse_evaluation(v.error(), what, where, f);
    return std::nullopt;
  }
  return FieldValue{std::move(*v), false};
}

std::optional<Condition> read_condition(std::string_view text, Field field,
                                        const expr::Object& contexts, const std::string& what,
                                        const util::SourceLocation& where, Findings& f) {
  Condition out;
  out.written = std::string(text);
  std::string expression(util::trim(text, " \t\r\n"));
  if (workflow::contains_expression(text)) {
    auto parts = expr::split_template(text);
    if (!parts) {
      f.refuse("expression-invalid", what + ": " + parts.error().message, where);
      return std::nullopt;
    }
    if (!expr::is_single_expression(*parts)) {
      // Text around `${{ }}` makes the condition a string: true unless it is empty.
      auto v = read_field(text, field, contexts, false, what, where, f);
      if (!v) {
        return std::nullopt;
      }
      out.kind = expr::truthy(*v->value) ? Condition::Kind::kSuccess : Condition::Kind::kNever;
      return out;
    }
    auto inner = std::find_if(parts->begin(), parts->end(),
                              [](const expr::TemplatePart& p) { return p.expression; });
    expression = inner->text;
  }
  if (expression.empty()) {
    return out;  // an empty `if:` is no condition
  }
  if (never_whatever_unknown(expression, field, contexts)) {
    out.expression = expression;
    out.kind = Condition::Kind::kNever;
    return out;
  }
  std::vector<expr::TemplatePart> one{{true, expression, 0}};
  auto c = check_parts(one, field, contexts, what, where, f);
  if (!c) {
    return std::nullopt;
  }
  out.expression = expression;
  if (c->knowledge == Knowledge::kRunTime) {
    out.kind = Condition::Kind::kExpression;
    return out;
  }
  // Known now, and no status function: `success() && value`, so a false value is never and a
  // true one is the default gate.
  auto v = evaluate_field("${{ " + expression + " }}", field, contexts, nullptr);
  if (!v) {
    refuse_evaluation(v.error(), what, where, f);
    return std::nullopt;
  }
  out.kind = expr::truthy(*v) ? Condition::Kind::kSuccess : Condition::Kind::kNever;
  return out;
}

util::Result<bool> evaluate_condition(const std::string& expression, Field field,
                                      const expr::Object& contexts, expr::Runtime& runtime) {
  auto node = parse_in(expression, field);
  if (!node) {
    return node.refusals();
  }
  if (!calls_status_function(expr::references(**node))) {
    auto ok = runtime.call("success", {});
    if (!ok) {
      return ok.refusals();
    }
    if (!expr::truthy(*ok)) {
      return false;
    }
  }
  auto v = expr::evaluate(**node, contexts, &runtime);
  if (!v) {
    return v.refusals();
  }
  return expr::truthy(*v);
}

}  // namespace reviewer::plan

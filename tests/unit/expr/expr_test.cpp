// GitHub's expression language, case by case from its documentation ("Evaluate expressions in
// workflows and actions"), plus the bounds and the runtime functions. The differential test
// (tests/expr/differential.mjs) covers the rest against GitHub's own evaluator.
#include <gtest/gtest.h>

#include <string>

#include "core/expr/evaluator.h"
#include "core/expr/json_value.h"
#include "core/expr/parser.h"

namespace reviewer::expr {
namespace {

Object contexts() {
  auto parsed = parse_json(R"({
    "github": {"event_name": "pull_request", "event": {"issue": {"labels": [
      {"name": "bug"}, {"name": "Triage"}]}}},
    "matrix": {"node": 22, "os": "ubuntu-latest"},
    "env": {"Greeting": "Hello"},
    "steps": {"build": {"outputs": {"json": "{\"a\": [1, 2]}"}}},
    "fruits": [{"name": "apple", "quantity": 1}, {"name": "orange", "quantity": 2},
               {"name": "pear", "quantity": 1}]
  })");
  return parsed->as_object();
}

Scope scope() { return Scope{{"github", "matrix", "env", "steps", "fruits"}, {}}; }

// The value as `reviewer expression` prints it, or "error: ..." for an error.
std::string eval(const std::string& text, Runtime* runtime = nullptr, Scope s = scope()) {
  auto tree = parse(text, s);
  if (!tree) {
    return "error: " + tree.error().message;
  }
  static const Object kContexts = contexts();
  auto v = evaluate(**tree, kContexts, runtime);
  return v ? to_compact_json(*v) : "error: " + v.error().message;
}

TEST(Expressions, LiteralsAsDocumented) {
  EXPECT_EQ(eval("null"), "null");
  EXPECT_EQ(eval("false"), "false");
  EXPECT_EQ(eval("711"), "711");
  EXPECT_EQ(eval("-9.2"), "-9.2");
  EXPECT_EQ(eval("0xff"), "255");
  EXPECT_EQ(eval("-2.99e-2"), "-0.0299");
  EXPECT_EQ(eval("'Mona the Octocat'"), "\"Mona the Octocat\"");
  EXPECT_EQ(eval("'It''s open source!'"), "\"It's open source!\"");
  // Every '' is one quote, as the runner's lexer reads it; the npm port unescapes only the
  // first (it gives "a'b''c"), the one place where we follow the runner over the oracle.
  EXPECT_EQ(eval("'a''b''c'"), "\"a'b'c\"");
}

TEST(Expressions, OperatorsAndLooseEquality) {
  EXPECT_EQ(eval("'abc' == 'ABC'"), "true");       // strings ignore case
  EXPECT_EQ(eval("matrix.node == '22'"), "true");  // a string meeting a number is a number
  EXPECT_EQ(eval("null == 0"), "true");            // null is 0
  EXPECT_EQ(eval("true == 1"), "true");
  EXPECT_EQ(eval("'' == 0"), "true");
  EXPECT_EQ(eval("NaN == NaN"), "false");
  EXPECT_EQ(eval("github == github"), "true");  // objects by identity
  EXPECT_EQ(eval("fromJSON('{}') == fromJSON('{}')"), "false");
  EXPECT_EQ(eval("'b' > 'A'"), "true");
  EXPECT_EQ(eval("1 < '2'"), "true");
  EXPECT_EQ(eval("'x' < 1"), "false");  // NaN is not ordered
  EXPECT_EQ(eval("!0"), "true");
  EXPECT_EQ(eval("!'false'"), "false");  // a non-empty string is truthy
}

TEST(Expressions, LogicalOperatorsReturnAnOperand) {
  EXPECT_EQ(eval("'' || 'default'"), "\"default\"");
  EXPECT_EQ(eval("matrix.os && matrix.node"), "22");
  // Parsed whole before anything is evaluated: an unknown name fails even where it would not run.
  EXPECT_EQ(eval("0 && nosuch"), "error: Unrecognized named-value: 'nosuch' (at character 6)");
  EXPECT_EQ(eval("github.event_name == 'push' && 'a' || 'b'"), "\"b\"");
}

TEST(Expressions, PropertyAccessAndFilters) {
  EXPECT_EQ(eval("github.event_name"), "\"pull_request\"");
  EXPECT_EQ(eval("github['EVENT_NAME']"), "\"pull_request\"");  // keys ignore case
  EXPECT_EQ(eval("github.nope.deeper"), "null");
  EXPECT_EQ(eval("fruits.*.name"), "[\"apple\",\"orange\",\"pear\"]");
  EXPECT_EQ(eval("fruits[1].quantity"), "2");
  EXPECT_EQ(eval("fruits['1'].name"), "\"orange\"");
  EXPECT_EQ(eval("fruits[9]"), "null");
  EXPECT_EQ(eval("contains(github.event.issue.labels.*.name, 'triage')"), "true");
  EXPECT_EQ(eval("matrix.*"), "[22,\"ubuntu-latest\"]");
}

TEST(Expressions, FunctionsAsDocumented) {
  EXPECT_EQ(eval("contains('Hello world', 'llo')"), "true");
  EXPECT_EQ(eval("contains(fromJSON('[\"push\", \"pull_request\"]'), github.event_name)"), "true");
  EXPECT_EQ(eval("startsWith('Hello world', 'He')"), "true");
  EXPECT_EQ(eval("endsWith('Hello world', 'ld')"), "true");
  EXPECT_EQ(eval("format('Hello {0} {1} {2}', 'Mona', 'the', 'Octocat')"),
            "\"Hello Mona the Octocat\"");
  EXPECT_EQ(eval("format('{{Hello {0} {1} {2}!}}', 'Mona', 'the', 'Octocat')"),
            "\"{Hello Mona the Octocat!}\"");
  EXPECT_EQ(eval("join(fruits.*.name, ', ')"), "\"apple, orange, pear\"");
  EXPECT_EQ(eval("join('abc')"), "\"abc\"");
  EXPECT_EQ(eval("toJSON(matrix)"),
            "\"{\\n  \\\"node\\\": 22,\\n  \\\"os\\\": \\\"ubuntu-latest\\\"\\n}\"");
  EXPECT_EQ(eval("fromJSON(steps.build.outputs.json).a[1]"), "2");
  EXPECT_EQ(eval("fromJSON('{\"b\":1,\"2\":2,\"1\":3}')"), "{\"1\":3,\"2\":2,\"b\":1}");
  EXPECT_EQ(eval("fromJSON('{\"a\":1,\"A\":2}').a"), "1");
  EXPECT_EQ(eval("case(matrix.node == 22, 'new', 'old')"), "\"new\"");
}

TEST(Expressions, ErrorsAsGitHubGivesThem) {
  EXPECT_EQ(eval("format('{0} {1}', 'a')"),
            "error: The following format string references more arguments than were supplied: "
            "{0} {1}");
  EXPECT_EQ(eval("format('{x}', 'a')"), "error: The following format string is invalid: {x}");
  EXPECT_EQ(eval("fromJSON('')"), "error: fromJSON: empty input");
  EXPECT_EQ(eval("fromJSON('{')").substr(0, 52),
            "error: Error parsing JSON when evaluating fromJson: ");
  EXPECT_EQ(eval("case(1, 'a', 'b')"), "error: case predicate must evaluate to a boolean value");
  EXPECT_EQ(eval("vars.x"), "error: Unrecognized named-value: 'vars' (at character 1)");
  EXPECT_EQ(eval("contains('a')"),
            "error: Too few parameters supplied: 'contains' (at character 1)");
  EXPECT_EQ(eval("join('a', 'b', 'c')"),
            "error: Too many parameters supplied: 'join' (at character 1)");
  EXPECT_EQ(eval("success()"), "error: Unrecognized function: 'success' (at character 1)");
  EXPECT_EQ(eval("1 +"), "error: Unexpected symbol: '+' (at character 3)");
  EXPECT_EQ(eval("(1"), "error: Unexpected end of expression: '1' (at character 2)");
  EXPECT_EQ(eval(""), "error: Unexpected end of expression: 'EOF' (at character 1)");
  EXPECT_EQ(eval("'open"), "error: Unexpected symbol: ''open' (at character 1)");
}

// A plugin step's outputs are a closed object: a key it holds reads as usual; any other key, a
// filter over it or toJSON of it is the object's refusal, never the null GitHub would give for an
// output nobody set (the real action may set it).
TEST(Expressions, AClosedObjectAnswersOnlyForItsKeys) {
  Object outputs;
  outputs.add("dest", Value::string("/home/runner/setup-pnpm"));
  outputs.close("action-output-unavailable", "only dest is known: ");
  Object step;
  step.add("outputs", Value::object(outputs));
  Object steps;
  steps.add("pnpm", Value::object(step));
  Object ctx;
  ctx.add("steps", Value::object(steps));
  auto run = [&](const std::string& text) -> std::string {
    auto tree = parse(text, Scope{{"steps"}, {}});
    EXPECT_TRUE(tree.ok()) << text;
    auto v = evaluate(**tree, ctx, nullptr);
    return v ? to_compact_json(*v) : v.error().rule + ": " + v.error().message;
  };
  EXPECT_EQ(run("steps.pnpm.outputs.dest"), "\"/home/runner/setup-pnpm\"");
  EXPECT_EQ(run("steps.pnpm.outputs.DEST"), "\"/home/runner/setup-pnpm\"");
  EXPECT_EQ(run("steps.pnpm.outputs['bin-dest']"),
            "action-output-unavailable: only dest is known: 'bin-dest'");
  EXPECT_EQ(run("steps.pnpm.outputs.*"),
            "action-output-unavailable: only dest is known: '*' (every value)");
  EXPECT_EQ(run("steps.*.outputs.cache-hit"),
            "action-output-unavailable: only dest is known: 'cache-hit'");
  EXPECT_EQ(run("steps.*.outputs.dest"), "[\"/home/runner/setup-pnpm\"]");
  EXPECT_EQ(run("toJSON(steps)"),
            "action-output-unavailable: only dest is known: every value, for toJSON()");
  // Other objects keep GitHub's null for a missing key.
  EXPECT_EQ(run("steps.pnpm.missing"), "null");
  EXPECT_EQ(run("steps.other.outputs.x"), "null");
}

TEST(Expressions, BoundedInLengthAndDepth) {
  std::string deep;
  for (int i = 0; i < 60; ++i) {
    deep += "(";
  }
  deep += "1";
  for (int i = 0; i < 60; ++i) {
    deep += ")";
  }
  EXPECT_EQ(eval(deep).rfind("error: Exceeded max expression depth 50: ", 0), 0u) << eval(deep);
  std::string shallow = "((((((((((1))))))))))";
  EXPECT_EQ(eval(shallow), "1");
  EXPECT_EQ(eval("'" + std::string(20998, 'a') + "'"), "\"" + std::string(20998, 'a') + "\"");
  EXPECT_EQ(eval("'" + std::string(20999, 'a') + "'"),
            "error: Exceeded max expression length 21000 (at character 1)");
}

// The runner's status functions and hashFiles answer through the Runtime, only where the scope
// allows them.
class FakeRuntime : public Runtime {
 public:
  util::Result<Value> call(const std::string& name, const std::vector<Value>& args) override {
    calls += name + "(" + std::to_string(args.size()) + ") ";
    if (name == "hashfiles") {
      return Value::string("d41d8cd98f00b204e9800998ecf8427e");
    }
    return Value::boolean(name == "success" || name == "always");
  }
  std::string calls;
};

TEST(Expressions, StatusFunctionsAndHashFilesAskTheRuntime) {
  Scope s = scope();
  s.functions = status_functions();
  s.functions.push_back(hash_files_function());
  FakeRuntime runtime;
  EXPECT_EQ(eval("success() && !cancelled()", &runtime, s), "true");
  EXPECT_EQ(eval("failure() || hashFiles('**/package-lock.json', 'x') != ''", &runtime, s), "true");
  EXPECT_EQ(runtime.calls, "success(0) cancelled(0) failure(0) hashfiles(2) ");
  EXPECT_EQ(eval("always(1)", &runtime, s),
            "error: Too many parameters supplied: 'always' (at character 1)");
  EXPECT_EQ(eval("hashFiles()", &runtime, s),
            "error: Too few parameters supplied: 'hashFiles' (at character 1)");
  EXPECT_EQ(eval("success()", nullptr, s), "error: success() has no value here");
}

}  // namespace
}  // namespace reviewer::expr

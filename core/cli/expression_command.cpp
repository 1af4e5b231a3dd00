// `reviewer expression --context FILE`: evaluates one expression per line of standard input over
// the contexts in FILE (a JSON object) and prints one JSON line for each:
// {"value": V, "kind": K} or {"error": "message"}. A number that is not finite is written as
// the string "NaN", "Infinity" or "-Infinity" with kind Number. Exit 0 unless FILE is unusable.
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "core/cli/commands.h"
#include "core/expr/evaluator.h"
#include "core/expr/js_number.h"
#include "core/expr/json_value.h"
#include "core/expr/parser.h"
#include "core/expr/text_case.h"
#include "core/report/exit_code.h"

namespace reviewer::cli {
namespace {

const char* kind_name(expr::Kind k) {
  switch (k) {
    case expr::Kind::kNull:
      return "Null";
    case expr::Kind::kBoolean:
      return "Boolean";
    case expr::Kind::kNumber:
      return "Number";
    case expr::Kind::kString:
      return "String";
    case expr::Kind::kArray:
      return "Array";
    case expr::Kind::kObject:
      return "Object";
  }
  return "";
}

std::string json_string(const std::string& s) {
  return expr::to_compact_json(expr::Value::string(s));
}

std::string result_line(const util::Result<expr::Value>& r) {
  if (!r) {
    return "{\"error\":" + json_string(r.error().message) + "}";
  }
  const expr::Value& v = *r;
  std::string value = v.kind() == expr::Kind::kNumber && !std::isfinite(v.as_number())
                          ? json_string(expr::format_js_number(v.as_number()))
                          : expr::to_compact_json(v);
  return "{\"value\":" + value + ",\"kind\":\"" + kind_name(v.kind()) + "\"}";
}

int run(const std::string& context_file) {
  std::ifstream in(context_file, std::ios::binary);
  if (!in) {
    std::cerr << "reviewer expression: cannot read " << context_file << "\n";
    return report::to_int(report::ExitCode::kUsage);
  }
  std::stringstream text;
  text << in.rdbuf();
  auto contexts = expr::parse_json(text.str());
  if (!contexts || contexts->kind() != expr::Kind::kObject) {
    std::cerr << "reviewer expression: " << context_file << " is not a JSON object"
              << (contexts ? "" : ": " + contexts.error().message) << "\n";
    return report::to_int(report::ExitCode::kUsage);
  }
  expr::Scope scope;
  for (const auto& [name, value] : contexts->as_object().entries()) {
    scope.contexts.push_back(expr::lower(name));
  }
  std::string line;
  while (std::getline(std::cin, line)) {
    auto tree = expr::parse(line, scope);
    std::cout << result_line(tree ? expr::evaluate(**tree, contexts->as_object())
                                  : util::Result<expr::Value>(tree.error()))
              << '\n';
  }
  return report::to_int(report::ExitCode::kOk);
}

}  // namespace

void register_expression_command(CLI::App& app, int& exit_code) {
  auto context = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "expression", "evaluate GitHub expressions, one per line of standard input, as JSON lines");
  sub->add_option("--context", *context, "a JSON object of contexts (github, env, matrix, ...)")
      ->required();
  sub->callback([context, &exit_code] { exit_code = run(*context); });
}

}  // namespace reviewer::cli

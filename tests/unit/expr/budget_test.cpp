// Issue 37, finding 4: an expression of a few hundred characters must not make the host build
// gigabytes. Each amplifier of the language is fed until it crosses a bound, and must stop there
// with `expression-too-large`, before it has built the value.
#include <gtest/gtest.h>

#include <string>

#include "core/expr/budget.h"
#include "core/expr/evaluator.h"
#include "core/expr/parser.h"

namespace reviewer::expr {
namespace {

// format('{0}{0}...', ...) `depth` deep, each level `width` copies of the one below: 'x' becomes
// width^depth characters.
std::string format_bomb(int depth, int width, const std::string& seed = "'x'") {
  std::string e = seed;
  for (int i = 0; i < depth; ++i) {
    std::string placeholders;
    for (int j = 0; j < width; ++j) {
      placeholders += "{0}";
    }
    e = "format('" + placeholders + "', " + e + ")";
  }
  return e;
}

// `inner` inside `depth` calls of `fn`.
std::string nested(const std::string& fn, int depth, const std::string& inner) {
  std::string e = inner;
  for (int i = 0; i < depth; ++i) {
    e = fn + "(" + e + ")";
  }
  return e;
}

// "rule: message" of the evaluation's refusal, or "value of N characters" / "value".
std::string run(const std::string& text) {
  auto tree = parse(text, Scope{});
  if (!tree) {
    return "parse error: " + tree.error().message;
  }
  auto v = evaluate(**tree, Object(), nullptr);
  if (!v) {
    return v.error().rule + ": " + v.error().message;
  }
  if (v->kind() == Kind::kString) {
    return "value of " + std::to_string(v->as_string().size()) + " characters";
  }
  return "value";
}

bool too_large(const std::string& text) {
  return run(text).rfind("expression-too-large: ", 0) == 0;
}

// The bomb of the issue: 8 levels of eight '{0}' make 8^8 = 16,777,216 characters (width 16
// made 4 GiB, and bad_alloc, before the bound). The second format() would cross it (8^7 is 2
// MiB), and is named where it stands.
TEST(ExpressionBounds, NestedFormatStopsAtTheStringBound) {
  EXPECT_EQ(run(format_bomb(8, 8)),
            "expression-too-large: format() makes a string longer than 1048576 bytes (1 MiB), the "
            "bound of one value (at character 36)");
  EXPECT_TRUE(too_large(format_bomb(8, 16))) << run(format_bomb(8, 16));
  EXPECT_EQ(run("contains('a', " + format_bomb(8, 8) + ")"),
            "expression-too-large: format() makes a string longer than 1048576 bytes (1 MiB), the "
            "bound of one value (at character 50)");
}

// A string of exactly the bound is a value; one byte more is not.
TEST(ExpressionBounds, TheStringBoundIsAMebibyte) {
  const std::string mebibyte = format_bomb(5, 16);  // 16^5
  EXPECT_EQ(run(mebibyte), "value of 1048576 characters");
  EXPECT_TRUE(too_large("format('{0}!', " + mebibyte + ")"));
  EXPECT_EQ(run("join(fromJSON('[1]'), " + mebibyte + ")"), "value of 1 characters");
}

// Each toJSON() of a string doubles its backslashes and escapes its quotes: 40 of them around
// one backslash would make 2^40 characters.
TEST(ExpressionBounds, NestedToJsonStopsAtTheStringBound) {
  EXPECT_TRUE(too_large(nested("toJSON", 40, "'\\'"))) << run(nested("toJSON", 40, "'\\'"));
}

// join() repeats its separator between every item: 1,000 items around a 4 KiB separator.
TEST(ExpressionBounds, JoinStopsAtTheStringBound) {
  std::string items = "fromJSON('[0";
  for (int i = 1; i < 1000; ++i) {
    items += ",0";
  }
  items += "]')";
  const std::string e = "join(" + items + ", " + format_bomb(2, 16, "'abcdefghijklmnop'") + ")";
  EXPECT_TRUE(too_large(e)) << run(e);
}

// fromJSON() turns two characters ("0,") into a whole value: 200,000 of them, from a string of
// 400 KB, well under the string bound.
TEST(ExpressionBounds, FromJsonStopsAtTheItemBound) {
  const std::string zeros = format_bomb(5, 10, "'0,0,'");  // 100,000 copies of "0,0,"
  const std::string e = "fromJSON(format('[{0}0]', " + zeros + "))";
  EXPECT_TRUE(too_large(e)) << run(e);
}

// Every value fromJSON() makes costs memory, an empty array too (three characters of text):
// six arrays of 90,001 empty arrays, alive together as format()'s arguments, cross what one
// evaluation may build, though each is within the item bound.
TEST(ExpressionBounds, FromJsonCountsEveryValue) {
  const std::string empties = format_bomb(4, 10, "'[],[],[],[],[],[],[],[],[],'");
  const std::string one = "fromJSON(format('[{0}[]]', " + empties + "))";
  EXPECT_EQ(run(one + "[90000]"), "value");
  std::string six = "format('{0}{1}{2}{3}{4}{5}'";
  for (int i = 0; i < 6; ++i) {
    six += ", " + one;
  }
  six += ")";
  EXPECT_EQ(run(six).rfind("expression-too-large: fromJSON() takes what the expression builds "
                           "past 33554432 bytes (32 MiB), the bound of one evaluation",
                           0),
            0u)
      << run(six);
}

// `[*]` over arrays of arrays flattens them: two arrays of 60,000 items, each within the bound,
// make one of 120,000.
TEST(ExpressionBounds, AFilterStopsAtTheItemBound) {
  const std::string items = format_bomb(4, 10, "'0,0,0,0,0,0,'");  // 60,000 zeros and commas
  const std::string e = "fromJSON(format('[[{0}0],[{0}0]]', " + items + "))[*][*]";
  EXPECT_EQ(run(e),
            "expression-too-large: the filter '*' makes an array or object of more than 100000 "
            "items, the bound of one value (at character 223)");
  EXPECT_EQ(run("fromJSON(format('[[{0}0]]', " + items + "))[*][*]"), "value");
}

// && returns its last operand, yet every operand is built: 31 strings of a mebibyte (1.07 MiB
// each with the levels below) cross the 32 MiB one evaluation may build, though no more than
// two of them are alive at once. The last operand's 256-byte format() is the one that crosses.
TEST(ExpressionBounds, OneEvaluationBuildsAtMostItsTotal) {
  const std::string mebibyte = format_bomb(5, 16);
  std::string e = mebibyte;
  for (int i = 1; i < 31; ++i) {
    e += " && " + mebibyte;
  }
  EXPECT_EQ(run(e),
            "expression-too-large: format() takes what the expression builds past 33554432 bytes "
            "(32 MiB), the bound of one evaluation (at character 9388)");
}

// A planning pass evaluates field after field and keeps their values: under one SharedBudget
// they build 16 MiB together, where each alone is within its own bound.
TEST(ExpressionBounds, APassSharesOneTotal) {
  const std::string mebibyte = format_bomb(5, 16);
  int values = 0;
  std::string refused;
  {
    SharedBudget pass;
    for (int i = 0; i < 40 && refused.empty(); ++i) {
      const std::string r = run(mebibyte);
      if (r == "value of 1048576 characters") {
        ++values;
      } else {
        refused = r;
      }
    }
  }
  // Each counts the strings format() builds (1 MiB + 64 KiB + 4 KiB + 256 + 16 bytes) and the
  // one kept (1 MiB): 7 fit in 16 MiB, and the eighth is built but cannot be kept.
  EXPECT_EQ(values, 7);
  EXPECT_EQ(refused,
            "expression-too-large: the expression's value takes what the workflow's expressions "
            "build together past 16777216 bytes (16 MiB), the bound of one plan (at character 1)");
  // Closed, the next evaluation has its own budget again.
  EXPECT_EQ(run(mebibyte), "value of 1048576 characters");
}

// A nested pass (a called workflow planned inside its caller's pass) draws on the outer one.
TEST(ExpressionBounds, ANestedPassDrawsOnTheOuter) {
  const std::string mebibyte = format_bomb(5, 16);
  SharedBudget outer;
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(run(mebibyte), "value of 1048576 characters");
  }
  {
    SharedBudget inner;
    for (int i = 0; i < 3; ++i) {
      ASSERT_EQ(run(mebibyte), "value of 1048576 characters");
    }
  }
  EXPECT_TRUE(too_large(mebibyte));
}

// Reading a context builds nothing, but the planner keeps the value: a string read by a field
// that YAML aliases repeat counts each time it is yielded.
TEST(ExpressionBounds, AYieldedStringCountsAgainstThePass) {
  Object contexts;
  contexts.add("body", Value::string(std::string(64 * 1024, 'b')));
  auto tree = parse("body", Scope{{"body"}, {}});
  ASSERT_TRUE(tree.ok());
  SharedBudget pass;
  int kept = 0;
  while (kept < 1000 && evaluate(**tree, contexts).ok()) {
    ++kept;
  }
  EXPECT_EQ(kept, 256);  // 16 MiB / 64 KiB
  auto v = evaluate(**tree, contexts);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().message,
            "the expression's value takes what the workflow's expressions build together past "
            "16777216 bytes (16 MiB), the bound of one plan (at character 1)");
}

}  // namespace
}  // namespace reviewer::expr

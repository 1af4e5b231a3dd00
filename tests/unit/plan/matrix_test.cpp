// strategy.matrix expanded as GitHub's documentation ("Running variations of jobs in a
// workflow") describes, with each of its examples, and the host's choice of one combination.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/plan/matrix.h"
#include "core/plan/yaml_value.h"
#include "core/yaml/bounded_loader.h"

namespace reviewer::plan {
namespace {

// The labels of the combinations `yaml` (a matrix mapping) expands to, or "rule: message".
std::vector<std::string> expand(const std::string& yaml) {
  auto node = yaml::load(yaml, "matrix.yml");
  EXPECT_TRUE(node.ok()) << node.error().to_string();
  auto value = to_expression_value(*node);
  if (!value) {
    return {value.error().rule + ": " + value.error().message};
  }
  auto combos = expand_matrix(value->as_object());
  if (!combos) {
    return {combos.error().rule + ": " + combos.error().message};
  }
  std::vector<std::string> out;
  for (const auto& c : *combos) {
    out.push_back(c.label());
  }
  return out;
}

using Labels = std::vector<std::string>;

TEST(Matrix, TheFirstKeyVariesSlowest) {
  EXPECT_EQ(expand("version: [10, 12, 14]\nos: [ubuntu-latest, windows-latest]\n"),
            (Labels{"version=10, os=ubuntu-latest", "version=10, os=windows-latest",
                    "version=12, os=ubuntu-latest", "version=12, os=windows-latest",
                    "version=14, os=ubuntu-latest", "version=14, os=windows-latest"}));
}

TEST(Matrix, IncludeAsDocumented) {
  // The documentation's fruit and animal example, with its stated result.
  EXPECT_EQ(expand("fruit: [apple, pear]\n"
                   "animal: [cat, dog]\n"
                   "include:\n"
                   "  - color: green\n"
                   "  - color: pink\n"
                   "    animal: cat\n"
                   "  - fruit: apple\n"
                   "    shape: circle\n"
                   "  - fruit: banana\n"
                   "  - fruit: banana\n"
                   "    animal: cat\n"),
            (Labels{"fruit=apple, animal=cat, color=pink, shape=circle",
                    "fruit=apple, animal=dog, color=green, shape=circle",
                    "fruit=pear, animal=cat, color=pink", "fruit=pear, animal=dog, color=green",
                    "fruit=banana", "fruit=banana, animal=cat"}));
}

TEST(Matrix, IncludeExpandsOneCombination) {
  EXPECT_EQ(expand("os: [windows-latest, ubuntu-latest]\n"
                   "node: [14, 16]\n"
                   "include:\n"
                   "  - os: windows-latest\n"
                   "    node: 16\n"
                   "    npm: 6\n"),
            (Labels{"os=windows-latest, node=14", "os=windows-latest, node=16, npm=6",
                    "os=ubuntu-latest, node=14", "os=ubuntu-latest, node=16"}));
}

TEST(Matrix, IncludeOnly) {
  EXPECT_EQ(expand("include:\n"
                   "  - site: production\n"
                   "    datacenter: site-a\n"
                   "  - site: staging\n"
                   "    datacenter: site-b\n"),
            (Labels{"site=production, datacenter=site-a", "site=staging, datacenter=site-b"}));
}

TEST(Matrix, ExcludeRemovesEveryMatchingCombinationBeforeInclude) {
  EXPECT_EQ(expand("os: [macos-latest, windows-latest]\n"
                   "version: [12, 14, 16]\n"
                   "environment: [staging, production]\n"
                   "exclude:\n"
                   "  - os: macos-latest\n"
                   "    version: 12\n"
                   "    environment: production\n"
                   "  - os: windows-latest\n"
                   "    version: 16\n"),
            (Labels{"os=macos-latest, version=12, environment=staging",
                    "os=macos-latest, version=14, environment=staging",
                    "os=macos-latest, version=14, environment=production",
                    "os=macos-latest, version=16, environment=staging",
                    "os=macos-latest, version=16, environment=production",
                    "os=windows-latest, version=12, environment=staging",
                    "os=windows-latest, version=12, environment=production",
                    "os=windows-latest, version=14, environment=staging",
                    "os=windows-latest, version=14, environment=production"}));
  // An include may bring back what an exclude removed: excludes come first.
  EXPECT_EQ(expand("node: [20, 22]\nexclude:\n  - node: 20\ninclude:\n  - node: 20\n"),
            (Labels{"node=22", "node=20"}));
}

TEST(Matrix, ValuesAreTypedAsGitHubReadsThem) {
  // 22 (a number) and '22' (a string) are different values; 22.x and 1.20 print as GitHub does.
  EXPECT_EQ(expand("node: [22, '22', 22.x, 1.20, true, ~]\n"),
            (Labels{"node=22", "node=22", "node=22.x", "node=1.2", "node=true", "node="}));
  EXPECT_EQ(expand("node: [22]\nexclude:\n  - node: '22'\n"), (Labels{"node=22"}));
  EXPECT_EQ(expand("cfg: [{a: 1}, {a: 2}]\nexclude:\n  - cfg: {a: 1}\n"),
            (Labels{"cfg={\"a\":2}"}));
}

TEST(Matrix, BadMatricesAreRefusedByName) {
  EXPECT_EQ(expand("node: 22\n"),
            (Labels{"matrix-invalid: matrix key 'node' must be a list of values, not 22"}));
  EXPECT_EQ(expand("node: []\n"), (Labels{"matrix-invalid: matrix key 'node' has no values"}));
  EXPECT_EQ(expand("node: [1]\ninclude: {node: 2}\n"),
            (Labels{"matrix-invalid: matrix 'include' must be a list of mappings"}));
  EXPECT_EQ(expand("node: [1]\ninclude: [3]\n"),
            (Labels{"matrix-invalid: matrix 'include' entry 3 is not a mapping"}));
  EXPECT_EQ(expand("node: [1]\nexclude:\n  - os: x\n"),
            (Labels{"matrix-invalid: matrix 'exclude' names 'os', which is not a key of the "
                    "matrix"}));
  EXPECT_EQ(expand("node: [1]\nexclude:\n  - node: 1\n"),
            (Labels{"matrix-empty: the matrix has no combination left to run"}));
  EXPECT_EQ(expand("a: [1,2,3,4,5,6,7,8]\nb: [1,2,3,4,5,6,7,8]\nc: [1,2,3,4,5]\n"),
            (Labels{"matrix-too-large: the matrix makes 320 combinations; GitHub runs at most "
                    "256"}));
  EXPECT_EQ(expand("node: ['${{ fromJSON(needs.a.outputs.b) }}']\n"),
            (Labels{"expression-in-matrix: '${{ fromJSON(needs.a.outputs.b) }}' is an "
                    "expression; its value is not known before the run"}));
}

TEST(Matrix, TheHostChoosesOneCombination) {
  auto node = yaml::load("node: [20, 22]\nos: [ubuntu-latest, ubuntu-24.04]\n", "m.yml");
  auto value = to_expression_value(*node);
  auto combos = expand_matrix(value->as_object());
  ASSERT_TRUE(combos.ok());
  auto chosen = choose_combination(*combos, {{"node", "22"}, {"os", "ubuntu-24.04"}});
  ASSERT_TRUE(chosen.ok()) << chosen.error().message;
  EXPECT_EQ(chosen->label(), "node=22, os=ubuntu-24.04");

  auto none = choose_combination(*combos, {});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().rule, "matrix-combination-required");
  EXPECT_EQ(none.error().message,
            "the job runs in 4 matrix combinations and the review runs one: choose it with "
            "--matrix NAME=VALUE ...; the combinations are: node=20, os=ubuntu-latest | "
            "node=20, os=ubuntu-24.04 | node=22, os=ubuntu-latest | node=22, os=ubuntu-24.04");
  auto missing = choose_combination(*combos, {{"node", "18"}});
  EXPECT_EQ(missing.error().rule, "matrix-combination-missing");
  auto ambiguous = choose_combination(*combos, {{"node", "22"}});
  EXPECT_EQ(ambiguous.error().rule, "matrix-combination-ambiguous");
  EXPECT_EQ(ambiguous.error().message,
            "2 matrix combinations have node=22; name more keys to choose one of: node=22, "
            "os=ubuntu-latest | node=22, os=ubuntu-24.04");

  auto single = yaml::load("node: [22]\n", "m.yml");
  auto one = expand_matrix(to_expression_value(*single)->as_object());
  EXPECT_EQ(choose_combination(*one, {})->label(), "node=22");
}

// A matrix of `keys`, each holding `values`, as an expression object.
expr::Object matrix_of(const std::vector<std::pair<std::string, std::vector<expr::Value>>>& keys) {
  expr::Object m;
  for (const auto& [k, values] : keys) {
    expr::Array a;
    a.items = values;
    m.add(k, expr::Value::array(std::move(a)));
  }
  return m;
}

std::vector<expr::Value> numbers(int n) {
  std::vector<expr::Value> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(expr::Value::number(i));
  }
  return out;
}

TEST(Matrix, TheListingNamesAtMost32CombinationsAndCutsLongValues) {
  auto combos = expand_matrix(matrix_of({{"n", numbers(40)}}));
  ASSERT_TRUE(combos.ok());
  std::string listed;
  for (int i = 0; i < 32; ++i) {
    listed += (i == 0 ? " n=" : " | n=") + std::to_string(i);
  }
  EXPECT_EQ(choose_combination(*combos, {}).error().message,
            "the job runs in 40 matrix combinations and the review runs one: choose it with "
            "--matrix NAME=VALUE ...; the combinations are:" +
                listed + " | and 8 more");
  EXPECT_EQ(choose_combination(*combos, {{"n", "x"}}).error().message,
            "no matrix combination has n=x; the combinations are:" + listed + " | and 8 more");

  // A value longer than a message quotes is cut as util::quote cuts it; shorter ones stay as
  // they were.
  const std::string long_value(200, 'v');
  combos = expand_matrix(
      matrix_of({{"big", {expr::Value::string(long_value), expr::Value::string("short")}}}));
  ASSERT_TRUE(combos.ok());
  EXPECT_EQ(choose_combination(*combos, {}).error().message,
            "the job runs in 2 matrix combinations and the review runs one: choose it with "
            "--matrix NAME=VALUE ...; the combinations are: big='" +
                std::string(120, 'v') + "...' | big=short");
  EXPECT_EQ(expand("node: ['" + long_value + "']\ninclude: [" + long_value + "]\n"),
            (Labels{"matrix-invalid: matrix 'include' entry '" + std::string(120, 'v') +
                    "...' is not a mapping"}));
}

// Issue 37: one value of 960 KiB (an expression builds it) in 256 combinations made the listing
// of matrix-combination-required 240 MB, and `reviewer plan` 1 GB in 11 s.
TEST(Matrix, AListingStaysSmallWhateverTheMatrixHolds) {
  const expr::Value big = expr::Value::string(std::string(960 * 1024, 'x'));
  auto combos = expand_matrix(matrix_of({{"big", {big}}, {"n", numbers(256)}}));
  ASSERT_TRUE(combos.ok());
  for (const auto& choice : std::vector<std::vector<std::pair<std::string, std::string>>>{
           {}, {{"n", "999"}}, {{"big", std::string(960 * 1024, 'x')}}}) {
    auto refused = choose_combination(*combos, choice);
    ASSERT_FALSE(refused.ok());
    EXPECT_LT(refused.error().message.size(), 8u * 1024) << refused.error().rule;
    EXPECT_NE(refused.error().message.find("big='" + std::string(120, 'x') + "...', n=0 | "),
              std::string::npos)
        << refused.error().rule;
    EXPECT_TRUE(refused.error().message.ends_with(" more")) << refused.error().rule;
  }
}

// An `include` entry is merged into every combination it fits: 12,000 keys into 256 combinations
// were three million values (430 MB, 24 s) from a 110 KB workflow.
TEST(Matrix, TheValuesOfAllCombinationsAreBounded) {
  expr::Object wide;
  for (int i = 0; i < 12'000; ++i) {
    wide.add("k" + std::to_string(i), expr::Value::string("v"));
  }
  expr::Array includes;
  includes.items.push_back(expr::Value::object(std::move(wide)));
  expr::Object m = matrix_of({{"n", numbers(256)}});
  m.add("include", expr::Value::array(std::move(includes)));
  auto refused = expand_matrix(m);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().rule + ": " + refused.error().message,
            "matrix-too-large: the matrix's combinations hold more than 65536 values together; "
            "the review expands at most that many (256 combinations of 256 keys)");
  // So do one-valued keys multiplying a product that excludes were to prune.
  std::vector<std::pair<std::string, std::vector<expr::Value>>> keys;
  for (int i = 0; i < 12; ++i) {
    keys.push_back({"two" + std::to_string(i), numbers(2)});
  }
  for (int i = 0; i < 20; ++i) {
    keys.push_back({"one" + std::to_string(i), numbers(1)});
  }
  EXPECT_EQ(expand_matrix(matrix_of(keys)).error().rule, "matrix-too-large");
  // 256 combinations of 256 keys are accepted.
  keys = {{"n", numbers(256)}};
  for (int i = 1; i < 256; ++i) {
    keys.push_back({"k" + std::to_string(i), numbers(1)});
  }
  auto accepted = expand_matrix(matrix_of(keys));
  ASSERT_TRUE(accepted.ok()) << accepted.error().message;
  EXPECT_EQ(accepted->size(), 256u);
  EXPECT_EQ((*accepted)[255].index, 255u);
}

}  // namespace
}  // namespace reviewer::plan

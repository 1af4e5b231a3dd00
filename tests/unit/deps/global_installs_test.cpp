// The global npm installs a review prefetches: read from run scripts conservatively. What is
// read must be exactly a registry package a plain `npm install -g` would fetch; anything else is
// passed over (its install then fails offline, as it would without the network).
#include "core/deps/global_installs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace reviewer::deps {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(GlobalInstalls, UnjsCorepackLine) {
  EXPECT_THAT(global_installs_of("npm i -fg corepack && corepack enable"),
              ElementsAre(GlobalInstall{"corepack", "*"}));
}

TEST(GlobalInstalls, EveryFormOfTheGlobalFlagAndTheInstallAliases) {
  for (const char* script :
       {"npm install -g corepack", "npm -g install corepack", "npm i --global corepack",
        "npm add corepack --location=global", "npm isntall -gf corepack",
        "npm i -g --force corepack", "  npm   i\t-g  corepack  # the newest"}) {
    EXPECT_THAT(global_installs_of(script), ElementsAre(GlobalInstall{"corepack", "*"})) << script;
  }
}

TEST(GlobalInstalls, SpecsScopesAndSeveralPackages) {
  EXPECT_THAT(global_installs_of("npm i -g pnpm@9 @vercel/ncc@^0.38.1 npm@latest"),
              ElementsAre(GlobalInstall{"pnpm", "9"}, GlobalInstall{"@vercel/ncc", "^0.38.1"},
                          GlobalInstall{"npm", "latest"}));
  EXPECT_THAT(global_installs_of("set -e\nnpm ci; npm install --global yarn@1.22.22 || exit 1\n"
                                 "(npm i -g typescript)"),
              ElementsAre(GlobalInstall{"yarn", "1.22.22"}, GlobalInstall{"typescript", "*"}));
}

TEST(GlobalInstalls, LocalInstallsAndOtherCommandsAreNotGlobal) {
  for (const char* script :
       {"npm ci", "npm install", "npm i corepack", "npm run -g build", "npx -g corepack",
        "pnpm add -g corepack", "echo npm i -g corepack", "sudo npm i -g corepack", "npm i -g",
        "# npm i -g corepack", "npm test # npm i -g corepack"}) {
    EXPECT_THAT(global_installs_of(script), IsEmpty()) << script;
  }
}

// Quotes, expansions, options that take values, URLs and paths: the command is passed over.
TEST(GlobalInstalls, WhatCannotBeReadAsPlainPackagesIsPassedOver) {
  for (const char* script :
       {"npm i -g \"corepack\"", "npm i -g 'corepack'", "npm i -g $PKG", "npm i -g corepack@$V",
        "npm i -g `cat x`", "npm i -g --registry https://r.example corepack",
        "npm i -g --prefix /tmp corepack", "npm i -g https://example.com/x.tgz", "npm i -g ./tools",
        "npm i -g github:user/repo", "npm i -g git+ssh://x", "npm i -g file:x", "npm i -g @scope",
        "npm i -g @/x", "npm i -g .hidden", "npm i -g corepack@", "npm i -g corepack@a/b",
        "npm i -g \\\n corepack"}) {
    EXPECT_THAT(global_installs_of(script), IsEmpty()) << script;
  }
  // The next command is still read.
  EXPECT_THAT(global_installs_of("echo \"a b\"; npm i -g corepack"),
              ElementsAre(GlobalInstall{"corepack", "*"}));
}

}  // namespace
}  // namespace reviewer::deps

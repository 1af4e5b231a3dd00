// The real review images, run with the production sandbox flags: each matrix image passes its
// own self-check; derived images carrying one planted fake credential each fail it, naming the
// finding (the red proofs); and the bundled example builds in its image to review-build-ok.
// Skipped, with the reason, where the images could not be built (no engine, not root).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/image/container.h"

namespace reviewer::image_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// The example's package.json asks for node 22.x, as the runner's default Node it runs on CI.
constexpr const char* kExampleImage = "reviewer-node22-bun1310";

std::vector<std::string> matrix_images() {
  std::ifstream in(REVIEWER_SOURCE_DIR "/matrix/runtime-matrix.json");
  const auto matrix = nlohmann::json::parse(in);
  std::vector<std::string> names;
  for (const auto& image : matrix.at("images")) {
    names.push_back(image.at("name").get<std::string>());
  }
  return names;
}

// A temporary directory, removed with its contents.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "reviewer-image-test-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

class ReviewImage : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = missing_image_reason(kExampleImage); !why.empty()) {
      GTEST_SKIP() << why;
    }
  }
};

TEST_F(ReviewImage, EveryMatrixImagePassesItsSelfCheck) {
  const auto names = matrix_images();
  ASSERT_GE(names.size(), 4U);
  for (const auto& name : names) {
    ASSERT_TRUE(image_exists(name)) << tag(name) << " was not built";
    Sandbox sandbox(tag(name));
    ASSERT_TRUE(sandbox.started()) << sandbox.start_output();
    auto r = sandbox.launch({"--self-check"});
    EXPECT_EQ(r.exit_code, 0) << name << "\n" << r.output;
    EXPECT_THAT(r.last_line(), StartsWith("review-self-check-ok: image " + name + " with "));
  }
}

// The isolation issue's findings 1 and 2 at the engine, without the launcher: the sandbox's
// profile denies the keyring calls podman's default allows, and its user is an id of a range of
// its own on the host, not 1000.
TEST_F(ReviewImage, TheSandboxDeniesKeyringsAndMapsItsUserOntoARangeOfItsOwn) {
  Sandbox sandbox(tag(kExampleImage));
  ASSERT_TRUE(sandbox.started()) << sandbox.start_output();
  EXPECT_EQ(sandbox
                .exec({"perl", "-e",
                       "my $r = syscall(250, 0, -4, 0); print $r < 0 ? \"$!\\n\" : \"$r\\n\""})
                .output,
            "Operation not permitted\n");
  const auto map = sandbox.exec({"cat", "/proc/self/uid_map"}).output;
  std::istringstream fields(map);
  unsigned long inside = 1, outside = 0, count = 0;
  fields >> inside >> outside >> count;
  EXPECT_EQ(inside, 0u) << map;
  EXPECT_GE(outside, 65536u) << map;
  EXPECT_EQ(count, 65536u) << map;
}

TEST_F(ReviewImage, ImagesRunAsTheReviewerUserWithTheTablesRuntimes) {
  Sandbox sandbox(tag(kExampleImage));
  ASSERT_TRUE(sandbox.started()) << sandbox.start_output();
  EXPECT_EQ(sandbox.exec({"id"}).output,
            "uid=1000(reviewer) gid=1000(reviewer) groups=1000(reviewer)\n");
  // The image's own user, for every container the host runs without naming one (the
  // dependency-resolution sandbox).
  EXPECT_EQ(
      run(engine() + " image inspect --format '{{.Config.User}}' " + tag(kExampleImage)).output,
      "reviewer\n");
  EXPECT_EQ(sandbox.exec({"node", "--version"}).output, "v22.23.5\n");
  EXPECT_EQ(sandbox.exec({"npm", "--version"}).output, "11.21.2\n");
  EXPECT_EQ(sandbox.exec({"/opt/reviewer/runtimes/bun/bin/bun", "--version"}).output, "1.3.10\n");
  EXPECT_EQ(sandbox.exec({"sh", "-c", "echo $HOME $TMPDIR"}).output,
            "/tmp/review/home /tmp/review/tmp\n");
  auto labels =
      run(engine() + " image inspect --format '{{json .Config.Labels}}' " + tag(kExampleImage));
  EXPECT_THAT(labels.output,
              HasSubstr("\"dev.reviewer.matrix-image\":\"" + std::string(kExampleImage) + "\""));
  EXPECT_THAT(labels.output, HasSubstr("\"org.opencontainers.image.base.digest\":\"sha256:"));
}

// 36 characters after ghp_, assembled at run time so that no literal here has a token's shape.
std::string token() { return "ghp_" + std::string("0123456789abcdefghij") + "ABCDEFGHIJklmnop"; }
std::string npm_token() {
  return "npm_" + std::string("abcdefghij0123456789") + "KLMNOPQRSTuvwxyz";
}

struct Plant {
  const char* name;        // also the derived image's tag suffix
  std::string dockerfile;  // lines after FROM, run as root
  std::string finding;     // what the refusal must name
};

// gtest prints a parameter in the test's listing; the plant's name, not its bytes.
void PrintTo(const Plant& plant, std::ostream* os) { *os << plant.name; }

std::vector<Plant> plants() {
  return {
      {"home-git-credentials",
       "RUN mkdir -p /home/ci && printf 'https://ci:%s@github.com\\n' '" + token() +
           "' > /home/ci/.git-credentials && chmod -R a+rX /home/ci\n",
       "/home/ci/.git-credentials"},
      {"etc-token-file",
       "RUN mkdir -p /etc/deploy && printf 'GITHUB_TOKEN=%s\\n' '" + token() +
           "' > /etc/deploy/ci.env && chmod -R a+rX /etc/deploy\n",
       "/etc/deploy/ci.env"},
      {"image-env", "ENV DEPLOY_HINT=" + token() + "\n", "DEPLOY_HINT"},
      {"git-credential-helper",
       "RUN printf '[credential]\\n\\thelper = store\\n' > /etc/gitconfig && chmod a+r "
       "/etc/gitconfig\n",
       "/etc/gitconfig"},
      {"npmrc-auth-token",
       "RUN useradd --system --home-dir /var/lib/deploy --create-home deploy && printf "
       "'//registry.npmjs.org/:_authToken=%s\\n' '" +
           npm_token() + "' > /var/lib/deploy/.npmrc && chmod -R a+rX /var/lib/deploy\n",
       "/var/lib/deploy/.npmrc"},
      // Outside the homes and /etc: a token file, npm's global configuration ($PREFIX/etc/npmrc,
      // which npm reads), and a Yarn login whose value has no token's shape.
      {"srv-token-file",
       "RUN mkdir -p /srv/deploy && printf 'GITHUB_TOKEN=%s\\n' '" + token() +
           "' > /srv/deploy/ci.env && chmod -R a+rX /srv/deploy\n",
       "/srv/deploy/ci.env"},
      {"npm-global-npmrc",
       "RUN mkdir -p /opt/reviewer/runtimes/node/etc && printf "
       "'//registry.npmjs.org/:_authToken=%s\\n' '" +
           npm_token() +
           "' > /opt/reviewer/runtimes/node/etc/npmrc && chmod a+r "
           "/opt/reviewer/runtimes/node/etc/npmrc\n",
       "'/opt/reviewer/runtimes/node/etc/npmrc:1' sets //registry.npmjs.org/:_authToken"},
      {"yarnrc-yml-login",
       "RUN mkdir -p /opt/app && printf 'npmAuthToken: deploy-secret-value\\n' > "
       "/opt/app/.yarnrc.yml && chmod -R a+rX /opt/app\n",
       "'/opt/app/.yarnrc.yml:1' sets npmAuthToken: yarn would send a registry credential"},
  };
}

class RedProof : public ReviewImage, public ::testing::WithParamInterface<Plant> {};

TEST_P(RedProof, APlantedCredentialFailsTheSelfCheck) {
  const Plant& plant = GetParam();
  const std::string derived = "reviewer-redproof-" + std::string(plant.name);
  TempDir context;
  std::ofstream(context.path() + "/Dockerfile") << "FROM " << tag(kExampleImage) << "\nUSER root\n"
                                                << plant.dockerfile << "USER reviewer\n";
  auto built = run(engine() + " build --quiet -t " + tag(derived) + " " + context.path());
  ASSERT_EQ(built.exit_code, 0) << built.output;
  Outcome r;
  {
    Sandbox sandbox(tag(derived));
    ASSERT_TRUE(sandbox.started()) << sandbox.start_output();
    r = sandbox.launch({"--self-check"});
  }
  run(engine() + " rmi -f " + tag(derived) + " >/dev/null");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("image-credential: "));
  EXPECT_THAT(r.output, HasSubstr(plant.finding));
  EXPECT_THAT(r.last_line(), StartsWith("review-build-refused: image-credential: "));
  EXPECT_THAT(r.output, Not(HasSubstr("0123456789abcdefghij")));
  EXPECT_THAT(r.output, Not(HasSubstr("deploy-secret-value")));
  EXPECT_THAT(r.output, Not(HasSubstr("review-self-check-ok")));
}

std::string plant_name(const ::testing::TestParamInfo<Plant>& plant) {
  std::string n = plant.param.name;
  for (auto& c : n) {
    c = c == '-' ? '_' : c;
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(Plants, RedProof, ::testing::ValuesIn(plants()), plant_name);

// The bundled example, as the host runs it: a depth-1 clone bind-mounted at /workspace, the
// assignment in the creation environment, the launcher exec'd as root, which it gives up at once.
TEST_F(ReviewImage, TheExampleBuildsInItsImage) {
  TempDir dir;
  const std::string clone = dir.path() + "/clone";
  auto made = run(REVIEWER_SOURCE_DIR "/docker/run-model/make-clone.sh " REVIEWER_SOURCE_DIR
                                      "/examples/node-app " +
                  clone);
  ASSERT_EQ(made.exit_code, 0) << made.output;
  // The Sandbox gives the clone to the sandbox user, as the host does for its clone.
  Sandbox sandbox(tag(kExampleImage), clone);
  ASSERT_TRUE(sandbox.started()) << sandbox.start_output();
  auto r = sandbox.launch();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-ok") << r.output;
  EXPECT_THAT(r.output, HasSubstr("in image " + std::string(kExampleImage)));
  EXPECT_THAT(r.output, HasSubstr("v22.23.5"));
  // Both jobs ran their steps: lint (needed) and test, whose build wrote dist/ in the clone.
  EXPECT_THAT(r.output, HasSubstr("[lint #2 Lint]"));
  EXPECT_THAT(r.output, HasSubstr("[test #4 Build]"));
  EXPECT_TRUE(fs::exists(clone + "/dist/index.js"));
}

}  // namespace
}  // namespace reviewer::image_test

// Artifacts passed from one job to the next, end to end in the run model: actions/upload-artifact
// stores what its search finds in the launcher's artifact store, and actions/download-artifact
// in a job that needs the uploader restores it where the action would. The attacks: a link in
// the uploaded path, files planted where a store could be, a link at the download's destination.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kUpload = "actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f";
constexpr const char* kDownload =
    "actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c";

std::string upload_dist(const std::string& make) {
  return "      - run: " + make + "\n      - uses: " + kUpload +
         "\n        with:\n          name: dist\n          path: dist/\n";
}

std::string download(const std::string& path) {
  return std::string("      - uses: ") + kDownload + "\n        with:\n          name: dist\n" +
         (path.empty() ? "" : "          path: " + path + "\n");
}

TEST_F(LauncherE2E, AJobsUploadedDistIsRestoredInTheJobThatNeedsIt) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("build", upload_dist("mkdir -p dist/sub && echo one > dist/a.txt && echo two > "
                                        "dist/sub/b.txt && echo hidden > dist/.hidden") +
                                // The artifact is what the upload found, not what the job left.
                                "      - run: echo changed-after-upload > dist/a.txt\n") +
               job("test",
                   download("out") + download("") +
                       "      - run: |\n"
                       "          echo \"out: $(cat out/a.txt) $(cat out/sub/b.txt)\"\n"
                       "          echo \"root: $(cat a.txt) $(cat sub/b.txt)\"\n"
                       "          test ! -e out/.hidden && echo hidden-files-left-out\n"
                       "          test ! -e dist && echo build-worktree-swept\n",
                   "    needs: build\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("artifact 'dist' uploaded to the review's store: 2 files below "
                                  "dist"));
  EXPECT_THAT(r.output, HasSubstr("] out: one two\n"));
  EXPECT_THAT(r.output, HasSubstr("] root: one two\n"));
  EXPECT_THAT(r.output, HasSubstr("] hidden-files-left-out\n"));
  EXPECT_THAT(r.output, HasSubstr("] build-worktree-swept\n"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, ALinkToEtcPasswdInTheUploadedPathFailsTheUploadByName) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("build", upload_dist("mkdir dist && echo ok > dist/a.txt && ln -s "
                                               "/etc/passwd dist/passwd")) +
                      job("test", download("out") + "      - run: cat out/passwd\n",
                          "    needs: build\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("artifact-link: 'dist/passwd' is a symbolic link"));
  EXPECT_THAT(r.output, Not(HasSubstr("root:x:0")));
  EXPECT_THAT(r.output, HasSubstr("reviewer: job 'test' not run"));
}

TEST_F(LauncherE2E, FilesAStepPlantsWhereAStoreCouldBeAreNeverRestored) {
  // After the upload, a step writes an extra file into every directory it can reach outside
  // the worktree (where an on-disk store would have to live) and changes the uploaded file.
  const std::string plant =
      "      - run: |\n"
      "          for d in $(find /tmp /var/tmp /run -maxdepth 5 -type d -writable 2>/dev/null); "
      "do\n"
      "            mkdir -p \"$d/dist\" 2>/dev/null && echo planted > \"$d/dist/evil.txt\"\n"
      "            echo planted > \"$d/evil.txt\" 2>/dev/null || true\n"
      "          done\n"
      "          echo planted > dist/evil.txt && echo tampered > dist/a.txt\n";
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("build", upload_dist("mkdir dist && echo original > dist/a.txt") + plant) +
               job("test",
                   download("out") + "      - run: |\n"
                                     "          find out -type f | sort\n"
                                     "          echo \"a=$(cat out/a.txt)\"\n",
                   "    needs: build\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("] out/a.txt\n"));
  EXPECT_THAT(r.output, HasSubstr("] a=original\n"));
  EXPECT_THAT(r.output, Not(HasSubstr("evil.txt")));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, ALinkAtTheDownloadsDestinationIsNotFollowed) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("build", upload_dist("mkdir dist && echo one > dist/a.txt")) +
                      job("test",
                          "      - run: mkdir -p /tmp/elsewhere && ln -s /tmp/elsewhere out\n" +
                              download("out") +
                              "      - if: always()\n"
                              "        run: |\n"
                              "          ls -A /tmp/elsewhere | sed 's/^/elsewhere-has /'\n",
                          "    needs: build\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  // The download fails by name; the guard after the job then refuses the directory link itself.
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("artifact-destination-refused: 'out' is a link or not a "
                                  "directory"));
  EXPECT_THAT(r.output, Not(HasSubstr("elsewhere-has ")));
  EXPECT_THAT(r.last_line(), HasSubstr("symlinked-directory: 'out'"));
}

}  // namespace
}  // namespace reviewer::e2e

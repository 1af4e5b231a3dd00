#include "core/launch/job_scratch.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/temp_dir.h"

namespace reviewer::launch {
namespace {

namespace fs = std::filesystem;
using test_support::TempDir;

class JobScratchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_.write("baseline-file", "before");
    tmp_.write("baseline-dir/inner", "before");
    var_tmp_.write("old", "before");
    auto made = JobScratch::create(tmp_.path(), {var_tmp_.path(), run_.path()});
    ASSERT_TRUE(made) << made.error().to_string();
    scratch_.emplace(std::move(*made));
  }

  std::string build_name() const { return fs::path(scratch_->build_dir()).filename(); }

  TempDir tmp_;
  TempDir var_tmp_;
  TempDir run_;
  std::optional<JobScratch> scratch_;
};

TEST_F(JobScratchTest, MakesTheReviewRootAndABuildDirectoryInIt) {
  EXPECT_EQ(scratch_->review_root(), tmp_ / "review");
  EXPECT_THAT(scratch_->build_dir(), ::testing::StartsWith(tmp_ / "review/build-"));
  EXPECT_TRUE(fs::is_directory(scratch_->build_dir()));
  EXPECT_EQ(fs::status(tmp_ / "review").permissions(), fs::perms::owner_all);
}

TEST_F(JobScratchTest, ClearRemovesWhatJobsAddedAndKeepsTheBaseline) {
  tmp_.write("leak", "x");
  tmp_.write("leakdir/sub/file", "x");
  var_tmp_.write("leak2", "x");
  run_.write("leak3", "x");
  tmp_.write("review/leak5", "x");
  tmp_.write("review/" + build_name() + "/0-a/home/leak4", "x");
  // A baseline entry a job changed stays as the job left it (a known limit).
  tmp_.write("baseline-dir/added", "x");

  auto cleared = scratch_->clear();
  ASSERT_TRUE(cleared) << cleared.error().to_string();
  for (const char* gone : {"leak", "leakdir", "review/leak5"}) {
    EXPECT_FALSE(tmp_.has(gone)) << gone;
  }
  EXPECT_FALSE(var_tmp_.has("leak2"));
  EXPECT_FALSE(run_.has("leak3"));
  EXPECT_TRUE(fs::is_empty(scratch_->build_dir()));
  EXPECT_EQ(tmp_.read("baseline-file"), "before");
  EXPECT_TRUE(tmp_.has("baseline-dir/added"));
  EXPECT_EQ(var_tmp_.read("old"), "before");
}

TEST_F(JobScratchTest, ClearPutsARenamedReviewRootBackAndRemovesTheImpostor) {
  TempDir elsewhere;
  elsewhere.write("report.json", "forged");
  fs::rename(tmp_ / "review", tmp_ / "moved");
  fs::create_directory_symlink(elsewhere.path(), tmp_ / "review");

  auto cleared = scratch_->clear();
  ASSERT_TRUE(cleared) << cleared.error().to_string();
  EXPECT_FALSE(fs::is_symlink(tmp_ / "review"));
  EXPECT_FALSE(tmp_.has("moved"));
  EXPECT_TRUE(fs::is_directory(scratch_->build_dir()));
  EXPECT_EQ(elsewhere.read("report.json"), "forged") << "the link was followed";
}

TEST_F(JobScratchTest, ClearRecreatesWhatAJobRemoved) {
  fs::remove_all(tmp_ / "review");
  auto cleared = scratch_->clear();
  ASSERT_TRUE(cleared) << cleared.error().to_string();
  EXPECT_TRUE(fs::is_directory(scratch_->build_dir()));
  tmp_.write("review/" + build_name() + "/later", "x");
  ASSERT_TRUE(scratch_->clear()) << "the recreated directories are the launcher's own";
  EXPECT_TRUE(fs::is_empty(scratch_->build_dir()));
}

TEST_F(JobScratchTest, ReclaimLeavesTheContentButNotAnImpostor) {
  tmp_.write("review/report.json", "left by the last job");
  fs::rename(tmp_ / "review", tmp_ / "moved");
  tmp_.write("review/report.json", "forged");

  auto reclaimed = scratch_->reclaim_review_root();
  ASSERT_TRUE(reclaimed) << reclaimed.error().to_string();
  EXPECT_EQ(tmp_.read("review/report.json"), "left by the last job");
  EXPECT_FALSE(tmp_.has("moved"));
}

TEST_F(JobScratchTest, AReviewRootMovedOutOfReachIsReplacedByAFreshOne) {
  fs::create_directory(tmp_ / "deeper");
  fs::rename(tmp_ / "review", tmp_ / "deeper/review");
  auto reclaimed = scratch_->reclaim_review_root();
  ASSERT_TRUE(reclaimed) << reclaimed.error().to_string();
  EXPECT_TRUE(fs::is_empty(tmp_ / "review"));
}

TEST(JobScratch, AReviewRootThatIsALinkIsRefusedAtTheStart) {
  TempDir tmp;
  TempDir elsewhere;
  fs::create_directory_symlink(elsewhere.path(), tmp / "review");
  auto made = JobScratch::create(tmp.path(), {});
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error().rule, "internal-error");
  EXPECT_THAT(made.error().message, ::testing::StartsWith("cannot create '" + tmp / "review"));
}

}  // namespace
}  // namespace reviewer::launch

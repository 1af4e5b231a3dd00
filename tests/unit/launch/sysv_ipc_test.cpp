// The System V IPC sweep between jobs (the attack on the launcher, finding 3): an object a job
// leaves goes, one recorded before any step stays. Runs in an IPC namespace of its own, so the
// host's objects are never touched.
#include "core/launch/sysv_ipc.h"

#include <sched.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace reviewer::launch {
namespace {

class SysvIpcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::unshare(CLONE_NEWIPC) != 0) {
      GTEST_SKIP() << "needs an IPC namespace of its own (root)";
    }
  }
};

bool shm_exists(int id) {
  shmid_ds ds{};
  return ::shmctl(id, IPC_STAT, &ds) == 0;
}

TEST_F(SysvIpcTest, ObjectsALaterJobLeftAreRemovedAndTheBaselineStays) {
  const int before = ::shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
  ASSERT_GE(before, 0);
  auto ipc = SysvIpc::record();
  ASSERT_TRUE(ipc) << ipc.error().to_string();
  const int shm = ::shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
  const int sem = ::semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
  const int msg = ::msgget(IPC_PRIVATE, IPC_CREAT | 0600);
  ASSERT_GE(shm, 0);
  ASSERT_GE(sem, 0);
  ASSERT_GE(msg, 0);
  auto listed = SysvIpc::list();
  ASSERT_TRUE(listed);
  EXPECT_EQ(listed->size(), 4u);

  auto swept = ipc->sweep();
  ASSERT_TRUE(swept) << swept.error().to_string();
  EXPECT_FALSE(shm_exists(shm));
  EXPECT_NE(::semctl(sem, 0, GETVAL), 0);  // -1: gone
  msqid_ds ds{};
  EXPECT_NE(::msgctl(msg, IPC_STAT, &ds), 0);
  EXPECT_TRUE(shm_exists(before));
  listed = SysvIpc::list();
  ASSERT_TRUE(listed);
  EXPECT_EQ(*listed, (std::set<SysvIpc::Object>{{"shm", before}}));
  ::shmctl(before, IPC_RMID, nullptr);
}

}  // namespace
}  // namespace reviewer::launch

#include "core/launch/job_scratch.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "core/launch/keyring_filter.h"

namespace reviewer::launch {
namespace {

constexpr const char* kReviewRootName = "review";

util::Refusal create_error(const std::string& path) {
  return util::refusal("internal-error", "cannot create '" + path + "': " + std::strerror(errno));
}

// Makes `name` in `parent` if it is not there and opens it without following a link; it must
// be a directory of the launcher's user (a step runs as that user, nobody else may own it).
util::Result<util::UniqueFd> make_dir_at(int parent, const std::string& name,
                                         const std::string& path) {
  if (::mkdirat(parent, name.c_str(), 0700) != 0 && errno != EEXIST) {
    return create_error(path);
  }
  util::UniqueFd fd(
      ::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  struct stat st {};
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0) {
    return create_error(path);
  }
  if (st.st_uid != ::geteuid()) {
    errno = EPERM;
    return create_error(path);
  }
  return fd;
}

// A name no one has yet, in the manner of mkdtemp but relative to a descriptor.
util::Result<std::string> make_unique_dir_at(int parent, const std::string& parent_path) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::array<unsigned char, 6> bytes{};
    if (::getrandom(bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
      return create_error(parent_path + "/build-XXXXXX");
    }
    std::string name = "build-";
    for (unsigned char b : bytes) {
      name += kAlphabet[b % (sizeof kAlphabet - 1)];
    }
    if (::mkdirat(parent, name.c_str(), 0700) == 0) {
      return name;
    }
    if (errno != EEXIST) {
      return create_error(parent_path + "/" + name);
    }
  }
  return create_error(parent_path + "/build-XXXXXX");
}

}  // namespace

util::Result<JobScratch> JobScratch::create(const std::string& tmp,
                                            const std::vector<std::string>& shared,
                                            bool sweep_ipc) {
  auto tmp_dir = ScratchDir::record(tmp);
  if (!tmp_dir) {
    return tmp_dir.error();
  }
  std::vector<ScratchDir> others;
  for (const auto& path : shared) {
    auto dir = ScratchDir::record(path);
    if (!dir) {
      return dir.error();
    }
    others.push_back(std::move(*dir));
  }
  std::optional<SysvIpc> ipc;
  std::optional<std::set<std::string>> keys;
  if (sweep_ipc) {
    auto recorded = SysvIpc::record();
    if (!recorded) {
      return recorded.error();
    }
    ipc = std::move(*recorded);
    auto listed = visible_kernel_keys();
    if (!listed) {
      return listed.error();
    }
    keys = std::move(*listed);
  }
  const std::string review_path = tmp + "/" + kReviewRootName;
  auto review_fd = make_dir_at(tmp_dir->fd(), kReviewRootName, review_path);
  if (!review_fd) {
    return review_fd.error();
  }
  if (auto owned = tmp_dir->own(kReviewRootName, review_fd->get()); !owned) {
    return owned.error();
  }
  // What an earlier launch left in the review root stays; only this build's jobs are swept.
  auto review = ScratchDir::record(std::move(*review_fd), review_path);
  if (!review) {
    return review.error();
  }
  auto build_name = make_unique_dir_at(review->fd(), review_path);
  if (!build_name) {
    return build_name.error();
  }
  const std::string build_path = review_path + "/" + *build_name;
  auto build_fd = make_dir_at(review->fd(), *build_name, build_path);
  if (!build_fd) {
    return build_fd.error();
  }
  if (auto owned = review->own(*build_name, build_fd->get()); !owned) {
    return owned.error();
  }
  return JobScratch(std::move(*tmp_dir), std::move(others), std::move(ipc), std::move(keys),
                    std::move(*review), ScratchDir::adopt_fresh(std::move(*build_fd), build_path),
                    std::move(*build_name));
}

util::Status JobScratch::recreate_review_root() {
  auto fd = make_dir_at(tmp_.fd(), kReviewRootName, review_.path());
  if (!fd) {
    return fd.error();
  }
  if (auto owned = tmp_.own(kReviewRootName, fd->get()); !owned) {
    return owned;
  }
  review_ = ScratchDir::adopt_fresh(std::move(*fd), review_.path());
  return util::ok_status();
}

util::Status JobScratch::restore_own_dirs() {
  auto review_in_place = tmp_.restore_own();
  if (!review_in_place) {
    return review_in_place.error();
  }
  // A job may have removed them (`rm -rf /tmp/*`); then they start over empty.
  if (!*review_in_place) {
    if (auto made = recreate_review_root(); !made) {
      return made;
    }
  }
  auto build_in_place = review_.restore_own();
  if (!build_in_place) {
    return build_in_place.error();
  }
  if (!*review_in_place || !*build_in_place) {
    auto fd = make_dir_at(review_.fd(), build_name_, build_.path());
    if (!fd) {
      return fd.error();
    }
    if (auto owned = review_.own(build_name_, fd->get()); !owned) {
      return owned;
    }
    build_ = ScratchDir::adopt_fresh(std::move(*fd), build_.path());
  }
  return util::ok_status();
}

util::Status JobScratch::clear() {
  if (auto swept = tmp_.sweep(); !swept) {
    return swept;
  }
  for (auto& dir : shared_) {
    if (auto swept = dir.sweep(); !swept) {
      return swept;
    }
  }
  if (ipc_) {
    if (auto swept = ipc_->sweep(); !swept) {
      return swept;
    }
  }
  if (keys_) {
    if (auto none = check_no_new_kernel_keys(*keys_); !none) {
      return none;
    }
  }
  if (auto restored = restore_own_dirs(); !restored) {
    return restored;
  }
  if (auto swept = review_.sweep(); !swept) {
    return swept;
  }
  return build_.sweep();
}

util::Status JobScratch::reclaim_review_root() {
  auto in_place = tmp_.restore_own();
  if (!in_place) {
    return in_place.error();
  }
  return *in_place ? util::ok_status() : recreate_review_root();
}

}  // namespace reviewer::launch

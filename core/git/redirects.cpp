#include "core/git/redirects.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "core/git/repository.h"
#include "core/git/rules.h"
#include "core/util/unique_fd.h"

namespace reviewer::git {
namespace {

constexpr const char* kRealStore =
    "; a clone's object store is a real directory inside its git directory";

struct Planted {
  const char* name;
  const char* effect;
};

// git reads both (http-alternates only on a dumb HTTP fetch); libgit2 1.5 reads `alternates`.
constexpr Planted kObjectsInfoRedirects[] = {
    {"alternates", "borrows objects from another object store"},
    {"http-alternates", "borrows objects from another object store over HTTP"},
};

void refuse(report::Refusals& out, const std::string& path, const std::string& what) {
  out.push_back(
      {std::string(kRuleRedirect), "'" + path + "' " + what, util::SourceLocation{path, 0, 0}});
}

void refuse_uninspectable(report::Refusals& out, const std::string& path, int err) {
  refuse(out, path,
         std::string("cannot be inspected without following links: ") + std::strerror(err));
}

// Opens `name` under `dir_fd` as a real directory. Absent: an invalid fd and nothing refused
// (a missing objects directory makes the repository unopenable, which is refused elsewhere).
// Opening first and classifying only on failure leaves no window between a check and the use.
util::UniqueFd open_store_dir(int dir_fd, const char* name, const std::string& path,
                              report::Refusals& out) {
  util::UniqueFd fd = util::open_directory(dir_fd, name);
  if (fd.valid()) {
    return fd;
  }
  const int open_errno = errno;
  struct stat st {};
  if (::fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno != ENOENT) {
      refuse_uninspectable(out, path, errno);
    }
    return fd;
  }
  if (S_ISLNK(st.st_mode)) {
    refuse(out, path, std::string("is a symlink") + kRealStore);
  } else if (!S_ISDIR(st.st_mode)) {
    refuse(out, path, std::string("is not a directory") + kRealStore);
  } else {
    refuse_uninspectable(out, path, open_errno);
  }
  return fd;
}

// Whether `name` exists under `dir_fd` as anything at all; fails closed when that is unknown.
bool present(int dir_fd, const char* name, const std::string& path, report::Refusals& out) {
  struct stat st {};
  if (::fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
    return true;
  }
  if (errno != ENOENT) {
    refuse_uninspectable(out, path, errno);
  }
  return false;
}

}  // namespace

util::Status check_redirects(const std::string& worktree) {
  report::Refusals out;
  const std::string git_dir = detail::git_dir_of(worktree);
  util::UniqueFd git_fd = util::open_directory(AT_FDCWD, git_dir.c_str());
  if (!git_fd.valid()) {
    if (errno != ENOENT && errno != ELOOP && errno != ENOTDIR) {
      refuse_uninspectable(out, git_dir, errno);
    }
    return util::status_of(std::move(out));
  }

  // git reads a commondir file in any git directory, libgit2 1.5 even without the `gitdir` file
  // a linked worktree would have: config, refs, objects and hooks then all come from elsewhere.
  const std::string commondir = git_dir + "/commondir";
  if (present(git_fd.get(), "commondir", commondir, out)) {
    refuse(out, commondir,
           "moves the common directory (config, refs, objects, hooks) out of the clone; a "
           "clone's git directory has no commondir file");
  }

  const std::string objects = git_dir + "/objects";
  util::UniqueFd objects_fd = open_store_dir(git_fd.get(), "objects", objects, out);
  if (!objects_fd.valid()) {
    return util::status_of(std::move(out));
  }
  const std::string info = objects + "/info";
  util::UniqueFd info_fd = open_store_dir(objects_fd.get(), "info", info, out);
  if (!info_fd.valid()) {
    return util::status_of(std::move(out));
  }
  for (const Planted& p : kObjectsInfoRedirects) {
    const std::string path = info + "/" + p.name;
    if (present(info_fd.get(), p.name, path, out)) {
      refuse(out, path, std::string(p.effect) + "; a clone's objects/info holds no alternates");
    }
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::git

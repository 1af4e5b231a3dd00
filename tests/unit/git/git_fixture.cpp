#include "tests/unit/git/git_fixture.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include "core/report/render.h"

namespace reviewer::git::testing {
namespace {

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string command(const std::string& cwd, const std::string& script, const std::string& home) {
  return "cd " + quote(cwd) + " && env -i PATH=/usr/bin:/bin HOME=" + quote(home) +
         " GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com "
         "GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com LC_ALL=C /bin/sh -ec " +
         quote(script);
}

}  // namespace

TempDir::TempDir() {
  std::string tmpl = "/tmp/reviewer-git-test-XXXXXX";
  REVIEWER_CHECK(::mkdtemp(tmpl.data()) != nullptr);
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  // Tests make some directories read-only; give them back before removing.
  std::system(("chmod -R u+rwx " + quote(path_) + " 2>/dev/null").c_str());
  std::filesystem::remove_all(path_, ec);
}

void sh(const std::string& cwd, const std::string& script, const std::string& home) {
  const std::string cmd = command(cwd, script, home) + " >/dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  ASSERT_EQ(rc, 0) << "script failed in " << cwd << ":\n" << script;
}

std::string sh_output(const std::string& cwd, const std::string& script, const std::string& home) {
  std::string out;
  FILE* p = ::popen((command(cwd, script, home) + " 2>/dev/null").c_str(), "r");
  if (p == nullptr) {
    return out;
  }
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) {
    out.append(buf.data(), n);
  }
  ::pclose(p);
  return out;
}

void write_file(const std::string& path, const std::string& content) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << content;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

std::set<std::string> rules_of(const report::Refusals& refusals) {
  std::set<std::string> out;
  for (const auto& r : refusals) {
    out.insert(r.rule);
  }
  return out;
}

std::string describe(const report::Refusals& refusals) {
  std::string out;
  for (const auto& r : refusals) {
    out += report::to_text(r) + "\n";
  }
  return out;
}

namespace {

void make_source(const std::string& parent, const std::string& home) {
  sh(parent,
     "git init -q -b main src && cd src && "
     "mkdir -p lib/deep && printf 'one\\n' > lib/a.txt && printf 'x\\n' > lib/deep/b.txt && "
     "printf '{\"lockfileVersion\":3}\\n' > package-lock.json && "
     "printf '{\"name\":\"x\"}\\n' > package.json && printf 'dist/\\n' > .gitignore && "
     "printf '#!/bin/sh\\n' > run.sh && chmod +x run.sh && "
     "git add -A && git commit -qm one && git tag v0 && "
     "printf 'two\\n' >> lib/a.txt && git commit -qam two && git branch side",
     home);
}

}  // namespace

void GitFixture::SetUp() {
  ::mkdir(home().c_str(), 0700);
  ::mkdir(canary_dir().c_str(), 0700);
  write_file(canary(), "#!/bin/sh\ntouch '" + canary_dir() + "/ran-'\"$1\"\nexit 0\n");
  ::chmod(canary().c_str(), 0755);
  // One source repository for the whole test program; tests that change it make their own.
  static const std::unique_ptr<TempDir> shared = [this] {
    auto dir = std::make_unique<TempDir>();
    make_source(dir->path(), home());
    return dir;
  }();
  src_ = shared->path() + "/src";
}

void GitFixture::use_private_source() {
  make_source(root_.path(), home());
  src_ = root_.path() + "/src";
}

void GitFixture::use_shapes_source(const std::string& more) {
  use_private_source();
  sh(src(),
     "mkdir -p a/b a-b && echo 1 > a/b/c && echo 2 > a-b/x && echo 3 > a.txt && echo 4 > a0 && "
     "chmod +x a0 && ln -s a.txt link && " +
         more + " && git add -A && git -c user.name=t -c user.email=t@e commit -qm shapes",
     home());
}

void GitFixture::clone(int depth, const std::string& extra_args) {
  const std::string args = depth == 1 ? "--depth 1 --no-tags " : "";
  sh(root_.path(), "git clone -q " + args + extra_args + " file://" + src() + " wt", home());
}

Baseline GitFixture::pin() {
  auto b = pin_baseline(wt(), home());
  EXPECT_TRUE(b.ok()) << (b.ok() ? "" : b.error().to_string());
  return b.ok() ? *b : Baseline{};
}

void GitFixture::arm_canaries() {
  const std::string c = canary();
  // Stat-dirty every tracked file first (with find: git itself would already run the canaries),
  // so a clean filter would be asked for each.
  in_wt(
      "find . -path ./.git -prune -o -type f -exec touch {} + && "
      "cat >> .git/config <<EOF\n"
      "[core]\n\tfsmonitor = " +
      c + " fsmonitor\n\tsshCommand = " + c +
      " ssh\n"
      "\tpager = " +
      c + " pager\n\teditor = " + c +
      " editor\n"
      "[filter \"evil\"]\n\tclean = " +
      c + " clean\n\tsmudge = " + c +
      " smudge\n"
      "\tprocess = " +
      c +
      " process\n\trequired = true\n"
      "[diff \"evil\"]\n\ttextconv = " +
      c +
      " textconv\n"
      "[merge \"evil\"]\n\tdriver = " +
      c +
      " merge\n"
      "[credential]\n\thelper = !" +
      c +
      " credential\n"
      "[gpg]\n\tprogram = " +
      c +
      " gpg\n"
      "EOF\n"
      "printf '* filter=evil diff=evil merge=evil\\n' > .git/info/attributes && "
      "for h in post-index-change post-checkout pre-commit reference-transaction "
      "fsmonitor-watchman pre-auto-gc; do "
      "printf '#!/bin/sh\\nexec \"%s\" hook-%s\\n' '" +
      c +
      "' $h > .git/hooks/$h; "
      "chmod +x .git/hooks/$h; done");
  ASSERT_FALSE(any_canary_ran()) << "arming the canaries ran one";
}

bool GitFixture::any_canary_ran() const { return !std::filesystem::is_empty(canary_dir()); }

void GitFixture::expect_nothing_executed(const Baseline& b, int depth) {
  arm_canaries();
  (void)check_before_job(wt(), home(), b, depth);
  (void)check_after_job(wt(), b);
  (void)history_shape(wt());
  (void)pin_baseline(wt(), home());
  (void)remove_created_paths(wt());
  (void)check_before_job(wt(), home(), b, depth);
  EXPECT_FALSE(any_canary_ran()) << "a canary ran: a guard executed configured code";
}

}  // namespace reviewer::git::testing

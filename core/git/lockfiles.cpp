#include "core/git/lockfiles.h"

#include <algorithm>
#include <array>

namespace reviewer::git {
namespace {

constexpr std::array<std::string_view, 6> kLockfiles{
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
    "bun.lock",          "bun.lockb",
};

constexpr std::array<std::string_view, 5> kDeclarations{
    "package.json", ".nvmrc", ".node-version", ".bun-version", ".tool-versions",
};

bool contains(std::span<const std::string_view> list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace

std::span<const std::string_view> lockfile_names() { return kLockfiles; }
std::span<const std::string_view> declaration_names() { return kDeclarations; }
bool is_lockfile_name(std::string_view name) { return contains(kLockfiles, name); }
bool is_pinned_input_name(std::string_view name) {
  return contains(kLockfiles, name) || contains(kDeclarations, name);
}

}  // namespace reviewer::git

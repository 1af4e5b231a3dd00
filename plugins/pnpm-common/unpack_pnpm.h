// The pnpm install that pnpm/action-setup and pnpm/setup both make, emulated from the host's
// verified tarball: the package unpacked into dest/node_modules/pnpm, the bins its package.json
// names linked in dest/node_modules/.bin (bin/pnpm.cjs up to pnpm 10, bin/pnpm.mjs from 11, as
// npm links them), the release checked, and that directory on the later steps' PATH
// (core.addPath). One copy, so the two plugins cannot drift apart.
#pragma once

#include <string>
#include <string_view>

namespace pnpm_common {

// Expects $who (the action, for messages), $version and $tarball; leaves $dest set for what
// follows.
inline constexpr std::string_view kUnpackPnpm = R"SH(
dest="$HOME/setup-pnpm"
rm -rf "$dest"
mkdir -p "$dest/node_modules/pnpm" "$dest/node_modules/.bin"
printf '{"private":true}' > "$dest/package.json"
tar -xzf "$tarball" --strip-components=1 --no-same-owner -C "$dest/node_modules/pnpm"
for name in pnpm pnpx; do
  for ext in cjs mjs; do
    if [ -f "$dest/node_modules/pnpm/bin/$name.$ext" ]; then
      ln -s "../pnpm/bin/$name.$ext" "$dest/node_modules/.bin/$name"
      break
    fi
  done
done
got=$(cd "$dest" && ./node_modules/.bin/pnpm --version)
if [ "$got" != "$version" ]; then
  echo "$who: the unpacked pnpm says it is '$got', not $version"
  exit 1
fi
printf '%s\n' "$dest/node_modules/.bin" >> "$GITHUB_PATH"
)SH";

// `before` + the unpack + `after`, as one script (the host runs one script per step).
inline std::string install_script(std::string_view before, std::string_view after) {
  std::string out(before);
  out += kUnpackPnpm;
  out += after;
  return out;
}

}  // namespace pnpm_common

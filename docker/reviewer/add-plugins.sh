#!/usr/bin/env bash
# Adds reviewed plugins built outside this tree (docs/plugin-authoring.md) to an install's plugin
# directory, held to the same checks as the in-tree ones: each DIR is a plugin author's build
# directory with its shared objects and the MANIFEST.sha256 the SDK's WritePluginManifest.cmake
# wrote there, which the operator reviewed. Every *.so of DIR must be in its manifest with that
# SHA-256 and a plain name, and no name may be one the directory already holds. The files are
# copied first and the copies checked, so what is checked is what is installed. The directory is
# changed only once all of it holds: a copy of it gets the new plugins, its manifest written anew
# and its index from `reviewer plugin-index`, which loads every plugin (a second claim of an
# action is refused there, plugin-duplicate-action); then the new files move in.
#
# Usage: add-plugins.sh REVIEWER PLUGIN_DIR DIR...   (REVIEWER: the build's bin/reviewer)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
say() { echo "add-plugins.sh: $*" >&2; }
(($# >= 3)) || { say "usage: add-plugins.sh REVIEWER PLUGIN_DIR DIR..."; exit 2; }
reviewer=$1 plugins=$2
shift 2
[[ -d $plugins && ! -L $plugins ]] || { say "$plugins is not a plugin directory"; exit 2; }
work=$(mktemp -d "$plugins/../.add-plugins.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
stage=$work/new
mkdir -m 0755 "$stage"
for dir in "$@"; do
  manifest=$dir/MANIFEST.sha256
  [[ -f $manifest && ! -L $manifest ]] ||
    { say "$dir has no MANIFEST.sha256 (write it with the SDK's WritePluginManifest.cmake)"; exit 3; }
  declare -A listed=()
  while IFS= read -r line; do
    [[ $line =~ ^([0-9a-f]{64})\ \ ([A-Za-z0-9][A-Za-z0-9._-]*\.so)$ ]] ||
      { say "$manifest: \"${line:0:120}\" is not \"<sha256>  <name>.so\""; exit 3; }
    sum=${BASH_REMATCH[1]} name=${BASH_REMATCH[2]}
    [[ -z ${listed[$name]:-} ]] || { say "$manifest names $name twice"; exit 3; }
    [[ ! -e $plugins/$name && ! -e $stage/$name ]] ||
      { say "$dir/$name: the plugin directory already holds a plugin of that name"; exit 3; }
    src=$dir/$name
    [[ -f $src && ! -L $src ]] || { say "$src is not a regular file"; exit 3; }
    install -m 0644 "$src" "$stage/$name"
    got=$(sha256sum "$stage/$name" | cut -c1-64)
    [[ $got == "$sum" ]] || { say "$src has SHA-256 $got, its manifest says $sum"; exit 3; }
    listed[$name]=1
  done <"$manifest"
  for so in "$dir"/*.so; do
    [[ -e $so ]] || continue
    [[ -n ${listed[$(basename "$so")]:-} ]] || { say "$so is not in $manifest"; exit 3; }
  done
  unset listed
done
compgen -G "$stage/*.so" >/dev/null || { say "no plugin in $*"; exit 3; }
# The directory as it will be, checked whole before anything of it changes.
cp -a "$plugins" "$work/all"
cp -a "$stage"/*.so "$work/all/"
cmake -DDIR="$work/all" -P "$root/cmake/WritePluginManifest.cmake"
"$reviewer" plugin-index "$work/all" || { say "the plugin directory's index was refused (above)"; exit 3; }
for so in "$stage"/*.so; do
  mv "$work/all/$(basename "$so")" "$plugins/"
done
mv "$work/all/MANIFEST.sha256" "$plugins/MANIFEST.sha256"
mv "$work/all/PLUGINS.index" "$plugins/PLUGINS.index"
for so in "$stage"/*.so; do say "added $(basename "$so")"; done

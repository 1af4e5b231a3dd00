#!/usr/bin/env bash
# The launcher links Debian's static archives of libgit2, OpenSSL's libcrypto, ... (cmake/
# ReviewerSystemLibraries.cmake), so the code it runs in an image comes from the -dev packages
# of the machine that built it, not from the image's pinned base. This keeps the two the same:
# each archive's package must have the version the base records for the packages of its
# source (docker/reviewer/base-packages.txt: libgit2-dev 1.5.1+ds-1+deb12u2 <-> libgit2-1.5).
#
#   check BUILD_DIR BASE_PACKAGES      every archive the build's launcher links
#                                      (BUILD_DIR/launcher-archives.txt, one path a line) is
#                                      still the file it was linked from (the SHA-256s of the last
#                                      build, BUILD_DIR/launcher-archives.sha256) and has the
#                                      base's version: exit 1 naming each that is not
#   pins BASE_PACKAGES DEV_PACKAGE...  `package=version` for each installed -dev package whose
#                                      version is not the base's (what apt-get must install)
set -euo pipefail
fail() { echo "launcher-archives: $*" >&2; exit 2; }

# The version BASE_PACKAGES records for a package built from the same source as installed
# package $2 (the -dev package depends on its library at its own version, so the library is
# installed here too); empty when the base holds none of that source's packages.
base_version() {  # base_version BASE_PACKAGES DEV_PACKAGE
  local source
  source=$(dpkg-query -W -f='${source:Package}' "$2") || fail "$2 is not installed"
  dpkg-query -W -f='${Package} ${source:Package}\n' | awk -v s="$source" '$2 == s {print $1}' |
    while read -r sibling; do
      awk -v p="$sibling" '$1 == p {print $2}' "$1"
    done | sort -u
}

# Compares installed package $2 with BASE_PACKAGES ($1): sets `have` (its version) and `want`
# (the base's, one line); returns 0 when they agree, 1 when they differ, 2 when the base holds
# no package of its source.
compare_to_base() {  # compare_to_base BASE_PACKAGES PACKAGE
  have=$(dpkg-query -W -f='${Version}' "$2" 2>/dev/null) || fail "$2 is not installed"
  want=$(base_version "$1" "$2" | head -1)
  [[ -n $want ]] || return 2
  [[ $want == "$have" ]] || return 1
}

case ${1:-} in
  check)
    (($# == 3)) || fail "usage: launcher-archives.sh check BUILD_DIR BASE_PACKAGES"
    list=$2/launcher-archives.txt sums=$2/launcher-archives.sha256 base=$3
    [[ -f $list && -f $sums ]] || fail "$2 has no launcher-archives.txt and .sha256: build it"
    bad=0
    # An archive upgraded since the last build keeps an older time than that build's link, so
    # only its content shows that the launcher holds the previous version's code.
    while read -r sum archive; do
      if [[ ! -f $archive || $(sha256sum <"$archive" | cut -d' ' -f1) != "$sum" ]]; then
        echo "launcher-archives: $archive is not the file the launcher was linked with: build $2 again" >&2
        bad=1
      fi
    done <"$sums"
    while read -r archive; do
      [[ -n $archive ]] || continue
      owner=$(dpkg-query -S "$archive" 2>/dev/null | head -1 | cut -d: -f1) || true
      [[ -n $owner ]] || { echo "launcher-archives: $archive belongs to no Debian package" >&2; bad=1; continue; }
      rc=0
      compare_to_base "$base" "$owner" || rc=$?
      if ((rc == 2)); then
        echo "launcher-archives: $archive ($owner $have): the image's base holds no package of its source" >&2
      elif ((rc == 1)); then
        echo "launcher-archives: $archive is $owner $have; the image's base has $want: install $owner=$want (scripts/install-deps.sh does)" >&2
      fi
      ((rc == 0)) || bad=1
    done <"$list"
    exit $bad
    ;;
  pins)
    (($# >= 2)) || fail "usage: launcher-archives.sh pins BASE_PACKAGES DEV_PACKAGE..."
    base=$2
    shift 2
    for dev in "$@"; do
      rc=0
      compare_to_base "$base" "$dev" || rc=$?
      ((rc != 1)) || echo "$dev=$want"
    done
    ;;
  *) fail "usage: launcher-archives.sh check BUILD_DIR BASE_PACKAGES | pins BASE_PACKAGES DEV_PACKAGE..." ;;
esac

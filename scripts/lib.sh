# Shared helpers for the scripts: sourced, never run.
# shellcheck shell=sh

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
TREE=${TREE:-$BUILD/linux}	# another work tree: TREE=... make kernel OUT=...

die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }
say() { printf '==> %s\n' "$*" >&2; }

# load_base: read BASE into PACKAGE, VERSION, TARBALL, SHA256, KERNELVERSION.
load_base() {
	. "$TOP/BASE"
}

# check_base: the installed package must be exactly the pinned one.
check_base() {
	load_base
	have=$(dpkg-query -W -f '${Version}' "$PACKAGE" 2>/dev/null) ||
		die "$PACKAGE is not installed (run: make deps)"
	[ "$have" = "$VERSION" ] ||
		die "$PACKAGE is $have but BASE pins $VERSION; install it with: apt-get install $PACKAGE=$VERSION"
	[ -r "$TARBALL" ] || die "$TARBALL missing although $PACKAGE $have is installed"
}

# worktree_at DIR COMMIT: DIR, a worktree of build/linux checked out at COMMIT
# (created the first time; the kernel of an earlier state, built out of tree).
worktree_at() {
	if [ ! -f "$1/Makefile" ]; then
		say "worktree of $(git -C "$TREE" log -1 --format=%h "$2") in ${1#$TOP/}"
		git -C "$TREE" worktree add -q -f --detach "$1" "$2"
	fi
	git -C "$1" checkout -q -f --detach "$2"
}

# patches_in_series: the patch files (paths under patches/: TOPIC/FILE), in
# series order, comments dropped.
patches_in_series() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series"
}

# topics_in_series: the topic directories of patches/series, in order.
topics_in_series() {
	patches_in_series | sed 's|/.*||' | uniq
}

# run_locked CMD...: run CMD holding the host's kernel-build lock
# ($KBUILD_LOCK), so that two kernel builds never share the host's cores.
run_locked() {
	if command -v flock >/dev/null; then
		flock "${KBUILD_LOCK:-/tmp/kbuild.lock}" "$@"
	else
		"$@"
	fi
}

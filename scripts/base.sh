#!/bin/sh
# make test-base ARCH=arm64|x86_64 [GUEST=...] [TESTS=glob,glob] [REF=N]: the
# same tests, but on the unpatched base kernel, or with REF=N on the series up
# to its patch N (an earlier state of the series, to compare with). The
# kernel is built from a worktree of build/linux at that commit,
# build/base-linux (build/ref-linux for REF), with the same config fragments
# (options the series adds later are dropped: BISECT=1), into
# build/base-<arch>/ (build/ref-<arch>/), and boots with the series'
# initramfs, so the tests are the series' own. Tests for interfaces that
# kernel lacks fail or skip: choose TESTS (e.g. '*grub*').
set -eu
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-arm64}
GUEST=${GUEST:-$ARCH}
REF=${REF:-}
[ -d "$TREE/.git" ] || die "no $TREE (make tree)"
[ -f "$BUILD/$ARCH/initramfs.cpio" ] || die "no series initramfs (make initramfs ARCH=$ARCH)"
if [ -z "$REF" ]; then
	NAME=base
	COMMIT=$(git -C "$TREE" rev-parse base)
else
	NAME=ref
	COMMIT=$(git -C "$TREE" rev-list --reverse base..HEAD | sed -n "${REF}p")
	[ -n "$COMMIT" ] || die "REF=$REF: the series has no patch $REF"
	say "the series up to patch $REF: $(git -C "$TREE" log -1 --format=%s "$COMMIT")"
fi
BASE_TREE=$BUILD/$NAME-linux
BASE_OUT=$BUILD/$NAME-$ARCH
worktree_at "$BASE_TREE" "$COMMIT"
TREE=$BASE_TREE OUT=$BASE_OUT BISECT=1 ARCH=$ARCH sh "$TOP/scripts/build.sh"
cp "$BUILD/$ARCH/initramfs.cpio" "$BASE_OUT/initramfs.cpio"
OUT=$BASE_OUT MODE=test GUEST=$GUEST sh "$TOP/scripts/run.sh" >/dev/null
python3 "$TOP/scripts/ktap_summary.py" "$NAME-$GUEST=$BASE_OUT/test-$GUEST.log"

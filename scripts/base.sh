#!/bin/sh
# make test-base ARCH=arm64|x86_64 [GUEST=...] [TESTS=glob,glob]: the same
# tests, but on the unpatched base kernel. build/base-linux is a worktree of
# build/linux's "base" commit; it is built with the same config fragments
# (options the series adds are dropped: BISECT=1) into build/base-<arch>/ and
# boots with the series' initramfs, so the tests are the series' own. Tests
# for interfaces the base lacks fail or skip: choose TESTS (e.g. '*grub*').
set -eu
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-arm64}
GUEST=${GUEST:-$ARCH}
BASE_TREE=$BUILD/base-linux
BASE_OUT=$BUILD/base-$ARCH
[ -d "$TREE/.git" ] || die "no $TREE (make tree)"
[ -f "$BUILD/$ARCH/initramfs.cpio" ] || die "no series initramfs (make initramfs ARCH=$ARCH)"
if [ ! -f "$BASE_TREE/Makefile" ]; then
	say "worktree of the base commit in ${BASE_TREE#$TOP/}"
	git -C "$TREE" worktree add -q -f --detach "$BASE_TREE" base
fi
TREE=$BASE_TREE OUT=$BASE_OUT BISECT=1 ARCH=$ARCH sh "$TOP/scripts/build.sh"
cp "$BUILD/$ARCH/initramfs.cpio" "$BASE_OUT/initramfs.cpio"
OUT=$BASE_OUT MODE=test GUEST=$GUEST sh "$TOP/scripts/run.sh" >/dev/null
python3 "$TOP/scripts/ktap_summary.py" "base-$GUEST=$BASE_OUT/test-$GUEST.log"

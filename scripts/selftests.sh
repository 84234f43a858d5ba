#!/bin/sh
# make selftests ARCH=...: build the series' kselftests, statically linked, for
# the guest, into build/<arch>/kselftest/. Nothing is written into the tree.
set -eu
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-arm64}
OUT=${OUT:-$BUILD/$ARCH}
case $ARCH in
arm64)	CROSS=aarch64-linux-gnu- ;;
x86_64)	CROSS= ;;
*)	die "ARCH must be arm64 or x86_64" ;;
esac
[ -d "$OUT/usr/include" ] || die "no kernel headers in $OUT/usr/include (make kernel ARCH=$ARCH)"
TARGETS=${KSFT_TARGETS:-sched/deadline}

say "building kselftests ($TARGETS) for $ARCH"
make -s -C "$TREE/tools/testing/selftests" ARCH=$ARCH CROSS_COMPILE=$CROSS \
	TARGETS="$TARGETS" O="$OUT/kselftest-build" \
	KHDR_INCLUDES="-isystem $OUT/usr/include" USERLDFLAGS=-static \
	INSTALL_PATH="$OUT/kselftest" install >/dev/null
say "installed in ${OUT#$TOP/}/kselftest"

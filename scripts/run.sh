#!/bin/sh
# Boot a guest: ARCH=arm64|x86_64, MODE=test|demo|shell, TESTS=glob,glob (test mode).
# The console goes to the terminal and to build/<arch>/<mode>.log.
# Timing runs use -icount (deterministic virtual time: one instruction is
# 2^shift ns: shift=1 makes a 500 MHz in-order CPU); set ICOUNT= to run without it (faster, not deterministic).
set -eu
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-arm64}
MODE=${MODE:-shell}
OUT=${OUT:-$BUILD/$ARCH}
ICOUNT=${ICOUNT-shift=1,sleep=off}
TIMEOUT=${TIMEOUT:-2400}
[ -f "$TOP/platforms/$ARCH.sh" ] || die "no platform $ARCH"
. "$TOP/platforms/$ARCH.sh"
[ -f "$OUT/$IMAGE" ] || die "no kernel $OUT/$IMAGE (make kernel ARCH=$ARCH)"
[ -f "$OUT/initramfs.cpio" ] || die "no $OUT/initramfs.cpio (make initramfs ARCH=$ARCH)"
platform_prepare

APPEND="console=$CONSOLE panic=-1 wbmode=$MODE wbtests=${TESTS:-} $PLATFORM_EXPECT"
# Only emergencies on the console: the guest reads the kernel log itself and
# fails on any splat; this keeps kernel lines out of the middle of KTAP lines.
[ "$MODE" = shell ] || APPEND="$APPEND loglevel=1"
ICOUNT_ARGS=
[ -n "$ICOUNT" ] && ICOUNT_ARGS="-icount $ICOUNT"
LOG=$OUT/$MODE.log

say "booting $ARCH guest ($MODE${ICOUNT:+, icount $ICOUNT}), log in ${LOG#$TOP/}"
set +e
# shellcheck disable=SC2086
if [ "$MODE" = shell ]; then
	$QEMU $MACHINE $PLATFORM_ARGS $ICOUNT_ARGS -nographic -no-reboot \
		-kernel "$OUT/$IMAGE" -initrd "$OUT/initramfs.cpio" -append "$APPEND"
else
	timeout "$TIMEOUT" $QEMU $MACHINE $PLATFORM_ARGS $ICOUNT_ARGS \
		-display none -serial stdio -monitor none -no-reboot \
		-kernel "$OUT/$IMAGE" -initrd "$OUT/initramfs.cpio" -append "$APPEND" \
		</dev/null 2>&1 | tee "$LOG"
fi

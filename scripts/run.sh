#!/bin/sh
# Boot a guest: GUEST=<a platforms/ file> (default: $ARCH), MODE=test|demo|shell,
# TESTS=glob,glob (test mode), TESTARGS="-v VARIANT" arguments for every
# kselftest binary and REPEAT=N runs of the selection (test mode), BOOTARGS= more kernel parameters (for example
# trace_buf_size=8M for an instrumented kernel). The console goes to the terminal and to
# build/<arch>/<mode>-<guest>.log.
# Timing runs use -icount: one instruction is 2^shift ns of virtual time
# (shift=1: a 500 MHz in-order CPU); ICOUNT= runs without it (faster, and
# timing then depends on the host's load).
set -eu
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-arm64}
GUEST=${GUEST:-$ARCH}
MODE=${MODE:-shell}
ICOUNT=${ICOUNT-shift=1,sleep=off}
TIMEOUT=${TIMEOUT:-2400}
[ -f "$TOP/platforms/$GUEST.sh" ] || die "no platform $GUEST"
. "$TOP/platforms/$GUEST.sh"	# sets ARCH to the kernel it boots
OUT=${OUT:-$BUILD/$ARCH}
[ -f "$OUT/$IMAGE" ] || die "no kernel $OUT/$IMAGE (make kernel ARCH=$ARCH)"
[ -f "$OUT/initramfs.cpio" ] || die "no $OUT/initramfs.cpio (make initramfs ARCH=$ARCH)"
platform_prepare

APPEND="console=$CONSOLE panic=-1 wbmode=$MODE wbtests=${TESTS:-} $PLATFORM_EXPECT ${PLATFORM_APPEND:-} ${BOOTARGS:-}"
[ -n "${TESTARGS:-}" ] && APPEND="$APPEND wbargs=$(echo "$TESTARGS" | tr ' ' ,)"
[ -n "${REPEAT:-}" ] && APPEND="$APPEND wbrepeat=$REPEAT"
[ -n "${TORTURE:-}" ] && APPEND="$APPEND wbtorture=$(echo "$TORTURE" | tr ' ' ,)"
# Only emergencies on the console: the guest reads the kernel log itself and
# fails on any splat; this keeps kernel lines out of the middle of KTAP lines.
# LOGLEVEL=N raises it for a debugging run (pr_info() of an instrumented
# kernel is LOGLEVEL=7), at the price of kernel lines among the KTAP ones.
# A guest that hangs never gets to read its log, so a hang panics instead:
# a task blocked for 120 s of guest time, a soft lockup or an RCU stall.
# panic() raises the console level, and panic_print=0x20 replays the whole
# kernel log on the console, so the report reaches build/<arch>/*.log.
HANG_PANIC="hung_task_panic=1 softlockup_panic=1 panic_on_rcu_stall=1 panic_print=0x20"
[ "$MODE" = shell ] || APPEND="$APPEND loglevel=${LOGLEVEL:-1} $HANG_PANIC"
ICOUNT_ARGS=
[ -n "$ICOUNT" ] && ICOUNT_ARGS="-icount $ICOUNT"
LOG=$OUT/$MODE-$GUEST.log

say "booting $GUEST guest ($MODE${ICOUNT:+, icount $ICOUNT}), log in ${LOG#$TOP/}"
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

#!/bin/sh
# make bench [ARCH=x86_64] [ROUNDS=20000] [RUNS=3]: the scheduler's hot-path
# cost, unpatched base against the series, in the same run. Both kernels are
# built from the same config fragments, configs/bench.config in place of
# debug.config (lockdep would dominate), into build/bench/base-<arch>/ and
# build/bench/<arch>/; both boot
# the same guest with the same initramfs under -icount and run
# bench/sched_cost.c and hackbench (guest-init.sh, wbmode=bench) RUNS times,
# alternating. The table (ratios series/base) goes to build/bench/report.md.
set -eu
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-x86_64}
GUEST=${GUEST:-$ARCH}
RUNS=${RUNS:-3}
ROUNDS=${ROUNDS:-20000}
BENCH=$BUILD/bench
BASE_TREE=$BUILD/base-linux
[ -d "$TREE/.git" ] || die "no $TREE (make tree)"
mkdir -p "$BENCH"

# the series' kernel and the guest's root file system (tests, bench/ tools)
DEBUG=$TOP/configs/bench.config OUT=$BENCH/$ARCH ARCH=$ARCH sh "$TOP/scripts/build.sh"
[ -d "$BUILD/$ARCH/kselftest" ] || ARCH=$ARCH sh "$TOP/scripts/selftests.sh"
ARCH=$ARCH sh "$TOP/scripts/initramfs.sh"
cp "$BUILD/$ARCH/initramfs.cpio" "$BENCH/$ARCH/initramfs.cpio"

# the base: a worktree of the base commit, the same fragments
worktree_at "$BASE_TREE" base
DEBUG=$TOP/configs/bench.config TREE=$BASE_TREE OUT=$BENCH/base-$ARCH BISECT=1 ARCH=$ARCH sh "$TOP/scripts/build.sh"
cp "$BUILD/$ARCH/initramfs.cpio" "$BENCH/base-$ARCH/initramfs.cpio"

logs=
i=1
while [ $i -le "$RUNS" ]; do
	for k in base-$ARCH $ARCH; do
		OUT=$BENCH/$k MODE=bench BOOTARGS="wbrounds=$ROUNDS" GUEST=$GUEST \
			sh "$TOP/scripts/run.sh" >/dev/null
		cp "$BENCH/$k/bench-$GUEST.log" "$BENCH/$k-run$i.log"
		logs="$logs $k=$BENCH/$k-run$i.log"
	done
	i=$((i + 1))
done
# shellcheck disable=SC2086
python3 "$TOP/scripts/bench_report.py" "base-$ARCH" "$ARCH" $logs > "$BENCH/report.md"
cat "$BENCH/report.md"

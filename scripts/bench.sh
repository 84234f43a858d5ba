#!/bin/sh
# make bench [BENCH=quick|full] [PARTS="hotpath dl"] [ARCH=x86_64] [RUNS=] [ROUNDS=]:
# base against series, in the same run, on the same guests under -icount
# (virtual time follows guest instructions). Two parts:
#
# hotpath: the scheduler's hot-path cost on $ARCH (default x86_64): both
#   kernels built from the same config fragments, configs/bench.config in
#   place of debug.config (lockdep would dominate), into build/bench/base-<arch>/
#   (the unpatched base) and build/bench/<arch>/; both boot the same guest with
#   the same initramfs and run bench/sched_cost.c and hackbench (guest-init.sh,
#   wbmode=bench) RUNS times, alternating.
#
# dl: deadline workloads on the arm64 big.LITTLE guest (bench/dl_workload.c,
#   wbbench=dl): periodic task sets at several total utilisations, fixed and
#   variable execution times, a mixed set with SCHED_FLAG_RECLAIM and
#   SCHED_FLAG_DL_DEMOTION, then rt-tests' cyclicdeadline and deadline_test.
#   Its "base" is NOT the bare base: it is the base commit plus only the
#   platform patches 0003 and 0004 (the test cpufreq driver's DT binding and
#   the driver), so that both kernels have OPPs, schedutil and an Energy
#   Model and the energy comparison is fair; without them the base would run
#   every CPU at one fixed speed with no EM at all. Built from
#   build/bench/base-plat-linux (the base tree exported by git archive, the
#   two patches applied with git am) into build/bench/base-plat-arm64/.
#
# BENCH=quick (default, a few minutes once the kernels are built): RUNS=2
# hot-path boots per kernel, sets at U = 0.2, 0.5 and 0.8 of 6 s each.
# BENCH=full: RUNS=5, U = 0.1 ... 0.8 in steps of 0.1, 20 s each.
# The report goes to build/bench/report.md, the plots next to it.
set -eu
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-x86_64}
GUEST=${GUEST:-$ARCH}
BENCH_MODE=${BENCH:-quick}
case $BENCH_MODE in
quick)	RUNS=${RUNS:-2}; UTILS=${UTILS:-0.2,0.5,0.8}; DUR_MS=${DUR_MS:-6000} ;;
full)	RUNS=${RUNS:-5}; UTILS=${UTILS:-0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8}; DUR_MS=${DUR_MS:-20000} ;;
*)	die "BENCH must be quick or full, not $BENCH_MODE" ;;
esac
PARTS=${PARTS:-hotpath dl}
# Debian's python3, where python3-matplotlib (make deps) is installed, rather
# than another python3 first in PATH (pyenv, a venv)
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
ROUNDS=${ROUNDS:-20000}
BENCH=$BUILD/bench
BASE_TREE=$BUILD/base-linux
PLAT_TREE=$BENCH/base-plat-linux
PLATFORM_PATCHES="0003 0004"	# DT binding + test cpufreq driver
[ -d "$TREE/.git" ] || die "no $TREE (make tree)"
mkdir -p "$BENCH"

# bench_kernel TREE OUT ARCH [BISECT]: a bench-config kernel, one kernel
# build at a time on the host. BISECT=1 for a base: options the series adds
# are dropped instead of stopping the build.
bench_kernel() {
	run_locked env DEBUG="$TOP/configs/bench.config" TREE="$1" OUT="$2" ARCH="$3" \
		BISECT="${4:-0}" sh "$TOP/scripts/build.sh"
}

# guest_root OUT ARCH: the initramfs of the bench guests, in OUT (the series'
# kselftests are built there too: the initramfs carries them)
guest_root() {
	[ -d "$1/kselftest" ] || OUT=$1 ARCH=$2 sh "$TOP/scripts/selftests.sh"
	OUT=$1 ARCH=$2 sh "$TOP/scripts/initramfs.sh"
}

# patch_file NNNN: the series' patch of that number
patch_file() {
	ls "$TOP/patches/$1"-*.patch
}

# The base tree for the arm64 deadline part: base + the platform patches.
platform_base_tree() {
	want=$(for n in $PLATFORM_PATCHES; do cksum < "$(patch_file "$n")"; done | cksum)
	[ -f "$PLAT_TREE/.bench-stamp" ] && [ "$(cat "$PLAT_TREE/.bench-stamp")" = "$want" ] && return 0
	say "base + platform patches ($PLATFORM_PATCHES) in ${PLAT_TREE#$TOP/}"
	rm -rf "$PLAT_TREE"
	mkdir -p "$PLAT_TREE"
	git -C "$TREE" archive --format=tar base | tar -x -C "$PLAT_TREE"
	# its own repository, so that build.sh sees a commit to configure by
	git -C "$PLAT_TREE" init -q
	git -C "$PLAT_TREE" add -A
	git -C "$PLAT_TREE" -c user.name=bench -c user.email=bench@localhost commit -q -m base
	for n in $PLATFORM_PATCHES; do
		git -C "$PLAT_TREE" -c user.name=bench -c user.email=bench@localhost \
			am -q "$(patch_file "$n")"
	done
	echo "$want" > "$PLAT_TREE/.bench-stamp"
}

hotpath_part() {
	bench_kernel "$TREE" "$BENCH/$ARCH" "$ARCH"
	guest_root "$BENCH/$ARCH" "$ARCH"
	worktree_at "$BASE_TREE" base
	bench_kernel "$BASE_TREE" "$BENCH/base-$ARCH" "$ARCH" 1
	cp "$BENCH/$ARCH/initramfs.cpio" "$BENCH/base-$ARCH/initramfs.cpio"
	rm -f "$BENCH"/*-run*.log	# a longer earlier run's would linger
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
	{
		echo "## Hot paths ($ARCH guest, bench/sched_cost.c and hackbench)"
		echo
		# shellcheck disable=SC2086
		"$PYTHON" "$TOP/scripts/bench_report.py" "base-$ARCH" "$ARCH" $logs
		echo
	} > "$BENCH/report-hotpath.md"
}

dl_part() {
	bench_kernel "$TREE" "$BENCH/arm64" arm64
	guest_root "$BENCH/arm64" arm64
	platform_base_tree
	bench_kernel "$PLAT_TREE" "$BENCH/base-plat-arm64" arm64 1
	cp "$BENCH/arm64/initramfs.cpio" "$BENCH/base-plat-arm64/initramfs.cpio"
	for k in base-plat-arm64 arm64; do
		OUT=$BENCH/$k MODE=bench GUEST=arm64 \
			BOOTARGS="wbbench=dl wbutils=$UTILS wbdur=$DUR_MS" \
			sh "$TOP/scripts/run.sh" >/dev/null
		cp "$BENCH/$k/bench-arm64.log" "$BENCH/dl-$k.log"
	done
	rm -f "$BENCH"/dl-*.png		# plots of sets this run did not have
	"$PYTHON" "$TOP/scripts/bench_dl_report.py" "$BENCH" \
		"base+platform=$BENCH/dl-base-plat-arm64.log" "series=$BENCH/dl-arm64.log" \
		> "$BENCH/report-dl.md"
}

start=$(date +%s)
rm -f "$BENCH/report-hotpath.md" "$BENCH/report-dl.md"
for part in $PARTS; do
	case $part in
	hotpath) hotpath_part ;;
	dl)	dl_part ;;
	*)	die "PARTS: hotpath and/or dl, not $part" ;;
	esac
done
{
	echo "# make bench ($BENCH_MODE), $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	load_base
	echo "Base $PACKAGE $VERSION; series at commit $(git -C "$TOP" rev-parse --short HEAD) of the project"
	echo "(kernel tree HEAD $(git -C "$TREE" rev-parse --short HEAD)). Every time in the tables"
	echo "is the guests' virtual time under QEMU -icount (it follows the instructions"
	echo "executed); this run took $(( $(date +%s) - start )) s of the host's wall time."
	echo
	for f in "$BENCH/report-hotpath.md" "$BENCH/report-dl.md"; do
		if [ -f "$f" ]; then cat "$f"; fi
	done
} > "$BENCH/report.md"
# the summary tables on the terminal; the rest is in the report
sed -n '/^| figure/,/^$/p; /^### Summary/,/^- /p' "$BENCH/report.md" | grep -v '^- '
echo "report: ${BENCH#$TOP/}/report.md"

#!/bin/sh
# make bench [BENCH=quick|full] [PARTS="hotpath dl"] [ARCH=x86_64] [RUNS=] [ROUNDS=]:
# base against series, in the same run, on the same guests under -icount
# (virtual time follows guest instructions). Two parts:
#
# hotpath: the scheduler's hot-path cost on $ARCH (default x86_64): both
#   kernels built from the same config fragments, configs/bench.config in
#   place of debug.config (lockdep would dominate), into build/bench/base-<arch>/
#   (the unpatched base) and build/bench/<arch>/; both boot the same guest with
#   the same initramfs and run bench/sched_cost.c and hackbench (guest/bench.sh,
#   wbmode=bench) RUNS times, alternating.
#
# dl: deadline workloads on the arm64 big.LITTLE guest (bench/dl_workload.c,
#   wbbench=dl): periodic task sets at several total utilisations, fixed and
#   variable execution times, a mixed set with SCHED_FLAG_RECLAIM and
#   SCHED_FLAG_DL_DEMOTION, then rt-tests' cyclicdeadline and deadline_test.
#   Its "base" is NOT the bare base: it is the base commit plus only the
#   two platform patches (the test cpufreq driver's DT binding and the
#   driver, found by their subjects in patches/), so that both kernels have
#   OPPs, schedutil and an Energy Model and the energy comparison is fair;
#   without them the base would run every CPU at one fixed speed with no EM
#   at all. Built from build/bench/base-plat-linux (a worktree of
#   build/linux at base, the two patches applied with git am) into
#   build/bench/base-plat-arm64/. Both kernels boot RUNS times, alternating.
#
# BASE_REF=REV (hotpath only): the "base" kernel is the kernel tree at REV
#   instead of the unpatched base, e.g. BASE_REF=HEAD~1 for the cost of the
#   series' last patch (a commit of build/linux; `make tree` rebuilds it).
#
# BENCH=quick (default, a few minutes once the kernels are built): RUNS=2
# boots per kernel and part, sets at U = 0.2, 0.5 and 0.8 of 6 s each.
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
BASE_REF=${BASE_REF:-base}
# Debian's python3, where python3-matplotlib (make deps) is installed, rather
# than another python3 first in PATH (pyenv, a venv)
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
ROUNDS=${ROUNDS:-20000}
OUTDIR=$BUILD/bench
BASE_TREE=$BUILD/base-linux
PLAT_TREE=$OUTDIR/base-plat-linux
# the platform patches, by subject: the DT binding, the test cpufreq driver
PLATFORM_SUBJECTS="dt-bindings: cpufreq: Add linux,test-cpufreq
cpufreq: Add a test driver for emulated machines"
[ -d "$TREE/.git" ] || die "no $TREE (make tree)"
mkdir -p "$OUTDIR"

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

# patch_by_subject SUBJECT: the series' patch file with that subject
patch_by_subject() {
	f=
	for p in $(patches_in_series); do
		sed -n 's/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//p' "$TOP/patches/$p" | head -n 1 |
			grep -q -F -x -e "$1" && f="$TOP/patches/$p" && break
	done
	[ -n "$f" ] || die "no patch with the subject '$1' in patches/series"
	echo "$f"
}

# The base tree for the arm64 deadline part: a worktree of build/linux at
# base with the platform patches applied (git am, fixed committer date, as
# make tree does). Reused while the stamp - the base commit and the patches'
# checksums - is the same: worktree_at would check base out again and drop
# the patches, so it is called only when the stamp differs.
platform_base_tree() {
	patches=$(echo "$PLATFORM_SUBJECTS" | while read -r subject; do
		patch_by_subject "$subject"; done)
	[ "$(echo "$patches" | grep -c .)" = "$(echo "$PLATFORM_SUBJECTS" | grep -c .)" ] ||
		die "a platform patch is missing from patches/series"
	# shellcheck disable=SC2086
	want="$(git -C "$TREE" rev-parse base) $(cat $patches | cksum)"
	stamp=$PLAT_TREE.stamp
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && return 0
	say "base + the platform patches in ${PLAT_TREE#$TOP/}"
	# an old copy made with git archive is no worktree
	[ -f "$PLAT_TREE/.git" ] || rm -rf "$PLAT_TREE"
	worktree_at "$PLAT_TREE" base
	# no automatic gc in the middle of the kernel build (see tree.sh)
	for p in $patches; do
		GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
			git -C "$PLAT_TREE" -c gc.auto=0 am -q --keep-cr --whitespace=nowarn "$p" ||
			{ git -C "$PLAT_TREE" am --abort; die "$p does not apply to base"; }
	done
	echo "$want" > "$stamp"
}

hotpath_part() {
	bench_kernel "$TREE" "$OUTDIR/$ARCH" "$ARCH"
	guest_root "$OUTDIR/$ARCH" "$ARCH"
	# resolved in the kernel tree: in the worktree, HEAD is the worktree's
	base_rev=$(git -C "$TREE" rev-parse --verify -q "$BASE_REF^{commit}") ||
		die "BASE_REF=$BASE_REF is no commit of ${TREE#$TOP/}"
	worktree_at "$BASE_TREE" "$base_rev"
	bench_kernel "$BASE_TREE" "$OUTDIR/base-$ARCH" "$ARCH" 1
	cp "$OUTDIR/$ARCH/initramfs.cpio" "$OUTDIR/base-$ARCH/initramfs.cpio"
	rm -f "$OUTDIR"/*-run*.log	# a longer earlier run's would linger
	logs=
	i=1
	while [ $i -le "$RUNS" ]; do
		for k in base-$ARCH $ARCH; do
			OUT=$OUTDIR/$k MODE=bench BOOTARGS="wbrounds=$ROUNDS" GUEST=$GUEST \
				sh "$TOP/scripts/run.sh" >/dev/null
			cp "$OUTDIR/$k/bench-$GUEST.log" "$OUTDIR/$k-run$i.log"
			logs="$logs $k=$OUTDIR/$k-run$i.log"
		done
		i=$((i + 1))
	done
	{
		echo "## Hot paths ($GUEST guest, bench/sched_cost.c and hackbench)"
		echo
		if [ "$BASE_REF" != base ]; then
			echo "\"base\" here is the kernel tree at $BASE_REF" \
				"($(git -C "$TREE" log -1 --format='%h %s' "$base_rev")), not the unpatched base."
			echo
		fi
		# shellcheck disable=SC2086
		"$PYTHON" "$TOP/scripts/bench_report.py" "base-$ARCH" "$ARCH" $logs
		echo
	} > "$OUTDIR/report-hotpath.md"
}

# check_dl_log LOG: the guest ran every set and the kernel-log check
check_dl_log() {
	grep -q '^wl end mixed' "$1" || die "no end of the mixed set in $1: the workload did not finish"
	grep -q '^bench kernel_log_clean' "$1" || die "no kernel-log check in $1: the guest did not finish"
}

dl_part() {
	bench_kernel "$TREE" "$OUTDIR/arm64" arm64
	guest_root "$OUTDIR/arm64" arm64
	platform_base_tree
	bench_kernel "$PLAT_TREE" "$OUTDIR/base-plat-arm64" arm64 1
	cp "$OUTDIR/arm64/initramfs.cpio" "$OUTDIR/base-plat-arm64/initramfs.cpio"
	rm -f "$OUTDIR"/dl-*.log	# a longer earlier run's would linger
	logs=
	i=1
	while [ $i -le "$RUNS" ]; do
		for k in base-plat-arm64 arm64; do
			OUT=$OUTDIR/$k MODE=bench GUEST=arm64 \
				BOOTARGS="wbbench=dl wbutils=$UTILS wbdur=$DUR_MS" \
				sh "$TOP/scripts/run.sh" >/dev/null
			log=$OUTDIR/dl-$k-run$i.log
			cp "$OUTDIR/$k/bench-arm64.log" "$log"
			check_dl_log "$log"
			case $k in
			arm64)	logs="$logs series=$log" ;;
			*)	logs="$logs base+platform=$log" ;;
			esac
		done
		i=$((i + 1))
	done
	rm -f "$OUTDIR"/dl-*.png		# plots of sets this run did not have
	# shellcheck disable=SC2086
	"$PYTHON" "$TOP/scripts/bench_dl_report.py" "$OUTDIR" $logs > "$OUTDIR/report-dl.md" ||
		die "bench_dl_report.py failed (see above)"
}

start=$(date +%s)
rm -f "$OUTDIR/report-hotpath.md" "$OUTDIR/report-dl.md"
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
	for f in "$OUTDIR/report-hotpath.md" "$OUTDIR/report-dl.md"; do
		if [ -f "$f" ]; then cat "$f"; fi
	done
} > "$OUTDIR/report.md"
# The run's results directory, as make test keeps one: the report, its
# plots and the guests' logs (make results copies the report into
# docs/bench.md's results section).
project=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo none)
git -C "$TOP" diff --quiet HEAD -- 2>/dev/null || project=$project-dirty
RES=$BUILD/results/bench-$(date -u +%Y%m%d-%H%M%S)-$project
mkdir -p "$RES"
cp "$OUTDIR/report.md" "$RES/bench-report.md"
for f in "$OUTDIR"/*.png "$OUTDIR"/*-run*.log; do
	[ -f "$f" ] && cp "$f" "$RES/"
done
# the summary tables on the terminal; the rest is in the report
sed -n '/^| figure/,/^$/p; /^### Summary/,/^- /p' "$OUTDIR/report.md" | grep -v '^- '
echo "report: ${OUTDIR#$TOP/}/report.md, kept in ${RES#"$TOP"/}"

#!/bin/sh
# sh scripts/worker_ab.sh [RUNS=3] [SIZED_US=2000]: schedutil's worker
# thread, with the placeholder reservation of 6.12 (the series up to the
# patch before "Give schedutil's worker thread a real reservation"), with its
# real reservation (the whole series: Q_w estimated from the transition
# latency), and with that reservation sized by schedutil's worker_runtime_us
# to SIZED_US (the whole series, the tunable written at boot), in the same
# run: dl_worker_test and dl_schedutil_test on the arm64-slowswitch guest,
# RUNS boots of each, alternating. The table:
# the partition's total_bw before the tasks, the delay to f_max with two
# tasks at the admission limit, the worker's activations (wakeup to sleep:
# count, transitions, response median and maximum, the CPU time charged to
# the worker per activation), late jobs, and schedutil's ramps from an
# admission to the frequency floor (virtual time: -icount).
# SIZED_US=2000 by default: above the CPU time charged per activation with the
# estimate (0.5 to 2 ms on average in the runs of 2026-12-03/04), and small
# enough that dl_schedutil_test's 70% task still fits beside the worker in a
# partition of one CPU (0.7 + 0.05 + 0.2 = 0.95; at 3 ms it is refused).
set -eu
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-3}
SIZED_US=${SIZED_US:-2000}
GUEST=arm64-slowswitch
TESTS='*dl_worker_test*,*dl_schedutil_test*'
SUBJECT="Give schedutil's worker thread a real reservation"
[ -d "$TREE/.git" ] || die "no $TREE (make tree)"
n=$(git -C "$TREE" log --reverse --format=%s base..HEAD | grep -n -F "$SUBJECT" | cut -d: -f1)
[ -n "$n" ] || die "no patch \"$SUBJECT\" in the series"

# both kernels, the series' initramfs (the first boot of each builds it)
ARCH=arm64 sh "$TOP/scripts/build.sh"
ARCH=arm64 sh "$TOP/scripts/selftests.sh" >/dev/null
ARCH=arm64 sh "$TOP/scripts/initramfs.sh"
REF=$((n - 1)) ARCH=arm64 GUEST=$GUEST TESTS=$TESTS sh "$TOP/scripts/base.sh" >/dev/null || true

out=$BUILD/worker-ab
mkdir -p "$out"
i=1
while [ $i -le "$RUNS" ]; do
	for k in ref series sized; do
		dir=$BUILD/arm64
		args=
		[ $k = ref ] && dir=$BUILD/ref-arm64
		[ $k = sized ] && args="wbsugov_runtime_us=$SIZED_US"
		OUT=$dir MODE=test GUEST=$GUEST TESTS=$TESTS BOOTARGS="$args" \
			sh "$TOP/scripts/run.sh" >/dev/null || true
		cp "$dir/test-$GUEST.log" "$out/$k-run$i.log"
	done
	i=$((i + 1))
done

printf '| kernel | run | partition total_bw | tasks | f_max after | worker activations, response median / max, CPU time per activation | late jobs | ramps U=10/30/50/70%%, us |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for f in "$out"/ref-run*.log "$out"/series-run*.log "$out"/sized-run*.log; do
	k=$(basename "$f" .log)
	awk -v k="${k%-run*}" -v r="${k#*-run}" '
	/partition: total_bw/ { sub(/.*total_bw /, ""); sub(/,.*/, ""); total = $0 }
	/:tasks [0-9]+\/[0-9]+ us/ { sub(/.*:tasks /, ""); tasks = $1 }
	/reached .* us after the first admission/ { sub(/.*reached /, ""); fmax = $1 " us" }
	/f_max never reached/ { fmax = "never" }
	/worker: [0-9]+ wakeups/ { sub(/.*worker: /, ""); split($0, w, /[ ,]+/)
		act = w[1] " (" w[3] " transitions), " w[6] " / " w[9] " us, " \
			int(w[12] / w[1]) " us" }
	/jobs, [0-9]+ late/ { sub(/.*jobs, /, ""); late += $1 }
	/ramp [0-9]+ us, bound/ { sub(/.*ramp /, ""); ramps = ramps (ramps ? " / " : "") $1 }
	END { printf "| %s | %s | %s | %s | %s | %s | %d | %s |\n", k, r, total, tasks, fmax, act, late, ramps }
	' "$f"
done

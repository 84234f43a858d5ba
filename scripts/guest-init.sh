#!/bin/sh
# /init of the test guest (busybox). The kernel command line selects what runs:
#   wbmode=test   run the tests (wbtests=name,name,... to select; glob patterns;
#                 wbargs=ARG,ARG,... passed to every kselftest binary, e.g.
#                 -v,VARIANT; wbrepeat=N runs the selection N times)
#                 and print KTAP: one item per KUnit suite, per kselftest
#                 binary, and a last one that fails on any kernel splat
#   wbmode=demo   run the demo scenario (/wb/demo)
#   wbmode=bench  print the hot-path figures (make bench); with wbbench=dl
#                 the deadline workloads instead (wbutils=, wbdur=)
#   wbmode=torture  run dl_torture with wbtorture=ARG,ARG,... then the log check
#   wbmode=shell  a shell on the console (make run)
# Then it powers the guest off (QEMU runs with -no-reboot).
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
# the kernel's boot, up to init's first step: CLOCK_MONOTONIC (ns), virtual
# time under -icount
BOOT_NS=$(sed -n 's/^now at \([0-9]*\) nsecs/\1/p' /proc/timer_list | head -n 1)
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
mount -t cgroup2 cgroup2 /sys/fs/cgroup
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr

# Reports the kernel makes when something is wrong. Any one fails the run.
SPLAT='WARNING:|BUG:|Oops|Kernel panic|cut here|Call [Tt]race:|possible (recursive|circular) locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|soft lockup|hard LOCKUP|rcu_.* stall|KASAN:|UBSAN:|lockdep is turned off'

# check_log N: result N, failing on any splat in the kernel log (shown).
check_log() {
	if dmesg | grep -E -q "$SPLAT"; then
		dmesg | grep -E -B 2 -A 30 "$SPLAT" | head -n 120 | sed 's/^/# /'
		echo "not ok $1 kernel_log_clean"
	else
		echo "ok $1 kernel_log_clean"
	fi
}

selected() {
	[ -z "$wbtests" ] && return 0
	for pat in $(echo "$wbtests" | tr , ' '); do
		# shellcheck disable=SC2254
		case $1 in $pat) return 0 ;; esac
	done
	return 1
}

# items: "kind:name" lines, the order they run in
list_items() {
	for d in /sys/kernel/debug/kunit/*/; do
		[ -f "$d/results" ] && echo "kunit:$(basename "$d")"
	done
	sed -n 's/^\(.*\):\(.*\)$/kselftest:\1\/\2/p' /kselftest/kselftest-list.txt
	echo "tools:rt-tests-rt-app"
	[ -n "$wbplatform" ] && echo "platform:$wbplatform"
}

# The machine is the one the platform file describes: per CPU, its capacity
# and its number of OPPs (0: no cpufreq), and whether EAS runs.
check_platform() {
	ok=0
	cpu=0
	for want in $(echo "$wbcapacity" | tr , ' '); do
		got=$(cat /sys/devices/system/cpu/cpu$cpu/cpu_capacity 2>/dev/null || echo 1024)
		echo "# cpu$cpu capacity $got (expected $want)"
		[ "$got" = "$want" ] || ok=1
		cpu=$((cpu + 1))
	done
	cpu=0
	for want in $(echo "$wbopps" | tr , ' '); do
		got=$(wc -w < /sys/devices/system/cpu/cpu$cpu/cpufreq/scaling_available_frequencies 2>/dev/null || echo 0)
		gov=$(cat /sys/devices/system/cpu/cpu$cpu/cpufreq/scaling_governor 2>/dev/null || echo none)
		echo "# cpu$cpu: $got OPPs (expected $want), governor $gov"
		[ "$got" = "$want" ] || ok=1
		cpu=$((cpu + 1))
	done
	got=$(cat /proc/sys/kernel/sched_energy_aware 2>/dev/null)
	got=${got:-0}	# empty or unreadable where EAS is not possible
	echo "# sched_energy_aware $got (expected $wbeas)"
	[ "$got" = "$wbeas" ] || ok=1
	# a message the kernel must have logged ('+' for spaces on the command line)
	if [ -n "${wblog:-}" ]; then
		want=$(echo "$wblog" | tr + ' ')
		if dmesg | grep -qF -- "$want"; then
			echo "# kernel log has: $want"
		else
			echo "# kernel log lacks: $want"
			ok=1
		fi
	fi
	return $ok
}

# The Debian tools in the guest start, with their libraries found.
check_tools() {
	cyclicdeadline -h 2>&1 | grep -q '^cyclicdeadline V' &&
	deadline_test -h 2>&1 | grep -q '^deadline_test V' &&
	rt-app 2>&1 | grep -q 'rt-app <taskset.json>'
}

run_item() {
	kind=${1%%:*}
	name=${1#*:}
	out=/tmp/item.out
	case $kind in
	kunit)
		cat "/sys/kernel/debug/kunit/$name/results" > $out
		if grep -q '^not ok' $out; then rc=1; else rc=0; fi ;;
	kselftest)
		# shellcheck disable=SC2046
		( cd "/kselftest/${name%/*}" &&
		  "./${name##*/}" $(echo "${wbargs:-}" | tr , ' ') ) > $out 2>&1
		rc=$? ;;
	tools)
		check_tools > $out 2>&1
		rc=$? ;;
	platform)
		check_platform > $out 2>&1
		rc=$? ;;
	esac
	sed 's/^/    /' $out
	case $rc in
	0) echo "ok $n $1" ;;
	4) echo "ok $n $1 # SKIP" ;;
	*) echo "not ok $n $1 # exit=$rc" ;;
	esac
}

run_tests() {
	once=$(list_items | while read -r i; do selected "$i" && echo "$i"; done)
	items=
	r=0
	while [ $r -lt "${wbrepeat:-1}" ]; do
		items="$items $once"
		r=$((r + 1))
	done
	total=$(($(echo $items | wc -w) + 1))
	echo "KTAP version 1"
	echo "1..$total"
	n=0
	for i in $items; do
		n=$((n + 1))
		start=$(cut -d' ' -f1 /proc/uptime)
		run_item "$i"
		echo "# $i took $(awk "BEGIN { print $(cut -d' ' -f1 /proc/uptime) - $start }") s (guest time)"
	done
	check_log $((n + 1))
}

# What a stuck dl_torture leaves: its processes' states and the trace.
torture_watchdog() {
	sleep "$1"
	echo "# watchdog: dl_torture still runs after $1 s; its tasks:"
	for d in /proc/[0-9]*; do
		grep -q dl_torture "$d/comm" 2>/dev/null || continue
		echo "# ${d#/proc/} $(cut -d' ' -f3 "$d/stat") wchan=$(cat "$d/wchan" 2>/dev/null)"
		sed 's/^/#   /' "$d/stack" 2>/dev/null
	done
	sed 's/^/# /' /sys/kernel/debug/sched/deadline_bw 2>/dev/null
	grep -v '^#' /sys/kernel/debug/tracing/trace 2>/dev/null | tail -n 5000 | sed 's/^/# trace: /'
}

run_torture() {
	echo "KTAP version 1"
	echo "1..2"
	# the run's length (-p phases of -d seconds for each -s seed, defaults
	# 3 x 5 for seeds 1 and 3) and 60 s a phase for the checks and the
	# restores, then the watchdog speaks
	set -- $(echo "$wbtorture" | tr , ' ')
	phases=3 secs=5 seeds=2
	while [ $# -gt 1 ]; do
		case $1 in
		-p) phases=$2 ;;
		-d) secs=${2%.*} ;;
		-s) seeds=$(echo "$2" | tr : '\n' | wc -l) ;;
		esac
		shift
	done
	torture_watchdog $((seeds * phases * (secs + 60))) > /dev/console 2>&1 &
	watchdog=$!
	# streamed, not collected: a long run shows its phases as they end
	{ ( cd /kselftest/sched/deadline && ./dl_torture $(echo "$wbtorture" | tr , ' ') )
	  echo $? > /tmp/item.rc; } 2>&1 | sed 's/^/    /'
	kill $watchdog 2>/dev/null
	rc=$(cat /tmp/item.rc)
	if [ $rc = 0 ]; then echo "ok 1 dl_torture"; else echo "not ok 1 dl_torture # exit=$rc"; fi
	# dl_torture stops the trace at its first error: what an instrumented
	# kernel (trace_printk) recorded up to it
	if [ $rc != 0 ] && grep -qv '^#' /sys/kernel/debug/tracing/trace 2>/dev/null; then
		echo "# the trace up to the first error (last 5000 lines):"
		grep -v '^#' /sys/kernel/debug/tracing/trace | tail -n 5000 | sed 's/^/# trace: /'
	fi
	check_log 2
}

# make bench: the scheduler's hot paths (bench/sched_cost.c) and hackbench,
# one "bench NAME VALUE UNIT" line per figure (virtual time under -icount)
# hackbench_runs NAME [CMD...]: five hackbench runs (4 groups, pipes,
# processes) on all CPUs, or through CMD, each a "bench NAME SECONDS s" line
hackbench_runs() {
	name=$1
	shift
	for i in 1 2 3 4 5; do
		"$@" hackbench -P -p -g 4 -l 50 2>&1 |
			sed -n "s/^Time: *\(.*\)/bench $name \1 s/p"
	done
}

# on_cpu1 CMD...: CMD in a cpuset of CPU 1 alone. Four vCPUs take turns on
# one host thread under TCG, so work spread over them finishes at a time
# that depends on how the turns fell; on one vCPU it follows the
# instructions, and a 1% difference can be read.
on_cpu1() {
	mkdir -p /sys/fs/cgroup/bench_cpu1
	echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control
	echo 1 >/sys/fs/cgroup/bench_cpu1/cpuset.cpus
	sh -c 'echo $$ >/sys/fs/cgroup/bench_cpu1/cgroup.procs && exec "$@"' on_cpu1 "$@"
}

run_bench() {
	echo "# bench on $(uname -r)"
	[ -n "$BOOT_NS" ] && echo "bench boot $BOOT_NS ns"
	/wb/sched_cost ${wbrounds:-20000}
	hackbench_runs hackbench
	hackbench_runs hackbench_cpu1 on_cpu1
	# The same with deadline tasks present: rt-tests' cyclicdeadline, two
	# threads of 10 and 15 ms periods waking every period on any CPU (it
	# stops itself after 60 s at the latest).
	cyclicdeadline -q -t 2 -i 10000 -s 5000 -D 60 >/dev/null 2>&1 &
	dl_pid=$!
	sleep 1
	if kill -0 $dl_pid 2>/dev/null; then
		hackbench_runs hackbench_dl
		kill $dl_pid
	else
		echo "# cyclicdeadline did not start: no hackbench_dl"
	fi
	wait $dl_pid 2>/dev/null
}

# The CPUs of capacity 1024 ("big") and the others ("little"), as lists.
cpus_of() {
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		cap=$(cat "$c/cpu_capacity" 2>/dev/null || echo 1024)
		case $1 in
		big)	[ "$cap" = 1024 ] && echo "${c##*cpu}" ;;
		little)	[ "$cap" != 1024 ] && echo "${c##*cpu}" ;;
		esac
	done | sort -n | tr '\n' , | sed 's/,$//'
}

# capacity of a list of CPUs in big-CPU units (sum of cpu_capacity / 1024)
capacity_of() {
	for c in $(echo "$1" | tr , ' '); do
		cat "/sys/devices/system/cpu/cpu$c/cpu_capacity" 2>/dev/null || echo 1024
	done | awk '{ s += $1 } END { print s / 1024 }'
}

# periodic_tasks PREFIX U CAP WORK IN "PERIOD:WEIGHT ...": one task per
# period, its reservation a WEIGHT share of U x CAP (CAP: the cluster's
# capacity in big-CPU units), so that sum(runtime/period) = U x CAP.
periodic_tasks() {
	i=0
	for pw in $6; do
		awk -v p="${pw%:*}" -v w="${pw#*:}" -v u="$2" -v cap="$3" -v n="$1$i" \
			-v work="$4" -v grp="$5" 'BEGIN {
			printf "task %s runtime=%.3f period=%d work=%s in=%s\n", n, u * cap * w * p, p, work, grp }'
		i=$((i + 1))
	done
}

# make_set NAME U WORK DURATION_MS: a periodic set at total reservation U
# of each cluster's capacity. The big CPUs stay in the root domain, the
# LITTLE ones are a cpuset partition (as a big.LITTLE system would pin
# its clusters). Few tasks with long periods: with several busy vCPUs the
# emulation lets a vCPU stand still for tens of ms (README, virtual time)
# and the kernel charges that jump of the CPU clock to the task at once; a
# reservation smaller than the jump ends in debt and a lost period, a miss
# that says nothing about the scheduler. Larger runtimes keep the slack
# (runtime - work) above most jumps.
make_set() {
	big=$(cpus_of big) little=$(cpus_of little)
	echo "name $1"
	echo "duration $4"
	echo "sample 20"
	[ -n "$little" ] && echo "partition little $little"
	periodic_tasks big "$2" "$(capacity_of "$big")" "$3" root "200:0.25 300:0.35 500:0.4"
	[ -n "$little" ] && periodic_tasks little "$2" "$(capacity_of "$little")" "$3" little "300:0.5 500:0.5"
}

# mixed_set DURATION_MS: periodic tasks at half the capacity, and beside them
# on the big CPUs a task that always has work and SCHED_FLAG_RECLAIM (how much
# of the unused bandwidth GRUB gives it), on the LITTLE CPUs the same
# reservation with and without SCHED_FLAG_DL_DEMOTION.
mixed_set() {
	make_set mixed 0.5 0.6 "$1"
	echo "task reclaimer runtime=50 period=250 work=3 flags=reclaim in=root"
	[ -n "$(cpus_of little)" ] || return 0
	echo "task demoted runtime=25 period=250 work=3 flags=demotion in=little"
	echo "task throttled runtime=25 period=250 work=3 in=little"
}

# The sum over CPUs of their root domain's admitted deadline bandwidth
# (dl_bw->total_bw in debugfs sched/debug, units of 2^-20 CPU).
admitted_bw() {
	awk '/dl_bw->total_bw/ { s += $NF } END { print s + 0 }' /sys/kernel/debug/sched/debug
}

# wait_bw_back BEFORE: wait, up to 10 s, until the admitted bandwidth is
# back to BEFORE. An exited task's bandwidth comes back at its 0-lag time,
# which for a task that overran lies a period plus the overrun scaled by
# period/runtime after its exit (the mixed set's 25/250 ms tasks: 10 ms
# per ms of overrun); the next set needs it for its admission.
wait_bw_back() {
	waited=0
	while [ "$(admitted_bw)" -gt "$1" ] && [ $waited -lt 100 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	echo "# bandwidth back to $1 after $((waited * 100)) ms: now $(admitted_bw)"
}

run_set() {
	echo "# set $1:"
	sed 's/^/#   /' /tmp/set.txt
	before=$(admitted_bw)
	/wb/dl_workload /tmp/set.txt
	wait_bw_back "$before"
}

# rt-tests' deadline_test: each of -t threads gets -p x (all CPUs) / -t of
# bandwidth, deadline = period = -i + k x -s (k = 0..t-1), and spins -P of
# its runtime; it runs 10 s. -t 4 -i 10000 -p 50 (1/2 of each CPU, 10 ms
# deadlines) missed 74-81% on both kernels: four busy vCPUs make the
# emulation's jumps (tens of ms, README) longer than a period. Here: 2
# threads of 10 x 4 / 2 = 20% (20/100 and 30/150 ms), 0.4 of the 4 CPUs,
# spinning half their runtime (slack 10 and 15 ms for the jumps): global
# EDF meets every deadline (0.4 <= 4 - 3 x 0.2), so a correct kernel shows
# 0 missed deadlines and periods.
DT_ARGS="-t 2 -i 100000 -s 50000 -p 10 -P 50"
CD_ARGS="-t 4 -i 10000 -s 5000"

# The external cross-check: rt-tests' own deadline programs, their output
# prefixed "rt cyclicdeadline " and "rt deadline_test " for the report.
run_rt_tests() {
	secs=$1
	echo "rt cyclicdeadline-args $CD_ARGS -D $secs"
	before=$(admitted_bw)
	timeout $((secs + 30)) cyclicdeadline -q $CD_ARGS -D "$secs" > /tmp/cd.out 2>&1
	echo "rt cyclicdeadline rc=$?"
	sed 's/^/rt cyclicdeadline /' /tmp/cd.out | tail -n 20
	wait_bw_back "$before"
	echo "rt deadline_test-args $DT_ARGS"
	timeout 120 deadline_test $DT_ARGS > /tmp/dt.out 2>&1
	echo "rt deadline_test rc=$?"
	grep . /tmp/dt.out | sed 's/^/rt deadline_test /'
}

# make bench, the deadline workloads (bench/dl_workload.c): sets at each
# total utilisation in wbutils= with fixed and variable execution times, the
# mixed set, then rt-tests. wbdur= is each set's length in ms.
run_dl_bench() {
	echo "# dl bench on $(uname -r)"
	for c in /sys/devices/system/cpu/cpufreq/policy*; do
		[ -d "$c" ] && echo "# $(basename "$c"): CPUs $(cat "$c/related_cpus"), governor $(cat "$c/scaling_governor")"
	done
	dur=${wbdur:-4000}
	for u in $(echo "${wbutils:-0.3,0.7}" | tr , ' '); do
		# fixed: every job 0.6 of the runtime; variable: uniform 0.2-0.6
		# (slack for the clock jumps, see make_set)
		for exec in fixed:0.6 variable:0.2-0.6; do
			make_set "${exec%%:*}-u$u" "$u" "${exec#*:}" "$dur" > /tmp/set.txt
			run_set "${exec%%:*}-u$u"
		done
	done
	mixed_set "$dur" > /tmp/set.txt
	run_set mixed
	run_rt_tests $((dur / 1000))
	check_log 1 | sed 's/^ok 1/bench kernel_log_clean ok/;s/^not ok 1/bench kernel_log_clean FAILED/'
}

# wbsugov_runtime_us=N: schedutil's worker_runtime_us for every policy,
# before anything runs (scripts/worker_ab.sh)
if [ -n "${wbsugov_runtime_us:-}" ]; then
	for f in /sys/devices/system/cpu/cpufreq/schedutil/worker_runtime_us \
		/sys/devices/system/cpu/cpu*/cpufreq/schedutil/worker_runtime_us; do
		[ -f "$f" ] || continue
		if echo "$wbsugov_runtime_us" >"$f"; then
			echo "# $f: $wbsugov_runtime_us"
		else
			echo "# $f: $wbsugov_runtime_us refused"
		fi
	done
fi

case ${wbmode:-shell} in
test)	run_tests ;;
bench)	if [ "${wbbench:-}" = dl ]; then run_dl_bench; else run_bench; fi ;;
torture) run_torture ;;
demo)	/wb/demo ;;
*)	echo "workbench guest: $(uname -r), $(nproc) CPUs; 'poweroff -f' or Ctrl-a x to leave"
	setsid cttyhack sh ;;
esac
echo "# wb: done"
sync
reboot -f

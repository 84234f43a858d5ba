# shellcheck shell=sh
# wbmode=bench: the hot paths (run_bench) or, with wbbench=dl, the deadline workloads (run_dl_bench).
# Sourced by /init (guest/init.sh), which defines check_log.

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

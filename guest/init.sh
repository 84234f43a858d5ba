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
#
# The jobs live in /wb/guest/ (guest/ in the workbench), one file each:
# tests.sh (wbmode=test), torture.sh, bench.sh; this file mounts, checks the
# kernel log (check_log, used by each) and dispatches. The host passes every
# parameter on the kernel command line (docs/architecture.md); the guest
# answers on the console in KTAP and ends with '# wb: done'.
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

for job in /wb/guest/*.sh; do
	. "$job"
done

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

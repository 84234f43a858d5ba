# shellcheck shell=sh
# wbmode=torture: dl_torture with wbtorture=ARG,ARG,..., a watchdog, then the log check.
# Sourced by /init (guest/init.sh), which defines check_log.

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

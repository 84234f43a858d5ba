# shellcheck shell=sh
# wbmode=test: the test items (KUnit suites, kselftest programs, the tools, the platform) as KTAP.
# Sourced by /init (guest/init.sh), which defines check_log.

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

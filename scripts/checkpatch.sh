#!/bin/sh
# make checkpatch: scripts/checkpatch.pl --strict on every patch of the series,
# as KTAP (one result per patch) in build/checkpatch.log.
set -eu
. "$(dirname "$0")/lib.sh"

LOG=$BUILD/checkpatch.log
mkdir -p "$BUILD"
n=0
{
	echo "KTAP version 1"
	echo "1..$(patches_in_series | wc -l)"
	for p in $(patches_in_series); do
		n=$((n + 1))
		if out=$("$TREE/scripts/checkpatch.pl" --strict --no-tree --quiet "$TOP/patches/$p" 2>&1); then
			echo "ok $n $p"
		else
			echo "$out" | sed 's/^/# /'
			echo "not ok $n $p"
		fi
	done
	echo "# wb: done"
} > "$LOG"
grep -v '^# wb' "$LOG" | sed -n '/^not ok\|^# /p' >&2 || true
! grep -q '^not ok' "$LOG"

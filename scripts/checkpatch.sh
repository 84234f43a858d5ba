#!/bin/sh
# make checkpatch: scripts/checkpatch.pl --strict on every patch of the series,
# as KTAP (one result per patch) in build/checkpatch.log.
# A patch may waive a checkpatch message type only by saying why in its commit
# message, on a line of its own:
#	checkpatch: ignore TYPE[,TYPE] (the reason)
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
		ignore=$(sed -n 's/^checkpatch: ignore \([A-Z_,]*\) (.*/\1/p' "$TOP/patches/$p" | paste -sd, -)
		# Fixes: and "commit <id>" name upstream commits, which build/linux
		# (the tarball imported as one commit) does not hold: checkpatch
		# checks their form here, not that they exist (UNKNOWN_COMMIT_ID).
		if out=$("$TREE/scripts/checkpatch.pl" --strict --no-tree --quiet \
			--ignore "UNKNOWN_COMMIT_ID${ignore:+,$ignore}" "$TOP/patches/$p" 2>&1); then
			echo "ok $n $p${ignore:+ # waived in its message: $ignore}"
		else
			echo "$out" | sed 's/^/# /'
			echo "not ok $n $p"
		fi
	done
	echo "# wb: done"
} > "$LOG"
grep -v '^# wb' "$LOG" | sed -n '/^not ok\|^# /p' >&2 || true
! grep -q '^not ok' "$LOG"

#!/bin/sh
# make apply KERNEL=DIR: apply the series to a user's own 6.12 tree, with git am
# when DIR is a git work tree, with patch(1) otherwise. Stops at the first
# patch that does not apply and says which.
set -eu
. "$(dirname "$0")/lib.sh"
load_base

DIR=${1:-}
[ -n "$DIR" ] && [ -f "$DIR/Makefile" ] || die "usage: make apply KERNEL=/path/to/linux-$KERNELVERSION"
have=$(make -s -C "$DIR" kernelversion 2>/dev/null || echo unknown)
case $have in
6.12|6.12.*) [ "$have" = "$KERNELVERSION" ] ||
	say "warning: $DIR is $have, the series is tested on $KERNELVERSION" ;;
*) die "$DIR is Linux $have, not 6.12" ;;
esac
for p in $(patches_in_series); do
	if git -C "$DIR" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$DIR" am -q "$TOP/patches/$p" ||
			{ git -C "$DIR" am --abort; die "$p does not apply to $DIR"; }
	else
		patch -d "$DIR" -p1 -N -s --dry-run < "$TOP/patches/$p" >/dev/null ||
			die "$p does not apply to $DIR (nothing changed by it)"
		patch -d "$DIR" -p1 -N -s < "$TOP/patches/$p"
	fi
	say "applied $p"
done

#!/bin/sh
# make export: write patches/ (NNNN-*.patch and series) from the commits
# base..HEAD of build/linux.
# make export-check (--check): exit 1 if build/linux holds uncommitted changes
# or commits whose export differs from patches/.
set -eu
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || { [ "${1:-}" = --check ] && exit 0; die "no $TREE (make tree)"; }
GIT="git -C $TREE"

# export_to DIR: the series as git format-patch writes it, reproducibly.
export_to() {
	mkdir -p "$1"
	$GIT -c core.abbrev=12 format-patch -q --zero-commit --no-signature \
		-o "$1" base..HEAD
	{
		echo "# sched/deadline series on $(sed -n 's/^VERSION=//p' "$TOP/BASE")"
		echo "# applied in this order by: make tree (git am) or quilt push -a"
		( cd "$1" && ls ) | grep '\.patch$' || true
	} > "$1/series"
}

if [ "${1:-}" = --check ]; then
	fail=0
	# --ignored too: builds are out of tree, so an ignored file in the tree is
	# new work that a .gitignore pattern hides (the kernel ignores ".*").
	dirty=$($GIT status --porcelain --untracked-files=normal --ignored | head -n 10)
	if [ -n "$dirty" ]; then
		printf 'build/linux has uncommitted changes:\n%s\n' "$dirty"
		fail=1
	fi
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	export_to "$tmp"
	# compare the series and every patch file, in both directions
	for n in $( (ls "$tmp"; ls "$TOP/patches" | grep '\.patch$'; echo series) | sort -u); do
		if ! cmp -s "$tmp/$n" "$TOP/patches/$n"; then
			echo "patches/$n differs from the commits in build/linux (make export)"
			fail=1
		fi
	done
	exit $fail
fi

rm -f "$TOP"/patches/*.patch
export_to "$TOP/patches"
say "exported $($GIT rev-list --count base..HEAD) patches to patches/"

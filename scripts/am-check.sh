#!/bin/sh
# make am-check: what a maintainer does with the series. A pristine 6.12.118
# from Debian's tarball (nothing dropped from it, unlike make tree's base
# commit), then `git am --empty=drop` of each topic directory's files in
# order, cover letters included (they have no diff and are dropped); the
# result must be the tree make tree builds, but for the .gitignore block
# make tree's base drops. As KTAP in build/am-check.log.
set -eu
. "$(dirname "$0")/lib.sh"
check_base
[ -d "$TREE/.git" ] || die "no $TREE (make tree)"
sh "$TOP/scripts/export.sh" --check >/dev/null ||
	die "build/linux holds work that patches/ lacks: make export first"

WORK=$BUILD/am-check
rm -rf "$WORK"
mkdir -p "$WORK"
say "extracting $TARBALL into ${WORK#"$TOP"/}"
tar -xJf "$TARBALL" -C "$WORK" --strip-components=1
GIT="git -C $WORK -c user.name=am-check -c user.email=am-check@localhost"
$GIT init -q
$GIT add -A -f .
$GIT commit -q -m pristine
LOG=$BUILD/am-check.log
topics=$(topics_in_series)
n=0
{
	echo "KTAP version 1"
	echo "1..$(($(echo "$topics" | wc -l) + 1))"
	for t in $topics; do
		n=$((n + 1))
		if $GIT am -q --empty=drop "$TOP/patches/$t"/0*.patch >"$WORK.out" 2>&1; then
			echo "ok $n git am patches/$t/ ($(ls "$TOP/patches/$t"/0*.patch | wc -l) files)"
		else
			sed 's/^/# /' "$WORK.out"
			echo "not ok $n git am patches/$t/"
			$GIT am --abort >/dev/null 2>&1 || true
		fi
	done
	n=$((n + 1))
	# the trees of the two, the base's .gitignore left out
	git -C "$WORK" fetch -q "$TREE" HEAD
	diff=$(git -C "$WORK" diff --stat HEAD FETCH_HEAD -- . ':!.gitignore')
	if [ -z "$diff" ]; then
		echo "ok $n the tree equals make tree's"
	else
		echo "$diff" | sed 's/^/# /'
		echo "not ok $n the tree equals make tree's"
	fi
	echo "# wb: done"
} | tee "$LOG"
rm -rf "$WORK" "$WORK.out"

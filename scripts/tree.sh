#!/bin/sh
# make tree: build/linux = the pristine base, committed as "base", then one
# commit per patch of patches/series, applied with git am, topic by topic;
# the branch topic/NN-name marks the last commit of patches/NN-name/ (make
# export splits the series there; rebase.updateRefs moves the branches along
# in git rebase -i).
# Reuses an existing base: only the commits on top of it are rebuilt, after
# checking that nothing unexported would be lost.
set -eu
. "$(dirname "$0")/lib.sh"
check_base

GIT="git -C $TREE"

make_base() {
	say "extracting $TARBALL ($VERSION) into $TREE"
	rm -rf "$TREE" "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -xJf "$TARBALL" -C "$TREE.tmp" --strip-components=1
	mv "$TREE.tmp" "$TREE"
	$GIT init -q -b work
	$GIT config user.name "${GIT_AUTHOR_NAME:-sched-dl workbench}"
	$GIT config user.email "${GIT_AUTHOR_EMAIL:-workbench@localhost}"
	$GIT config core.abbrev 12
	# no automatic gc: repacking 80k fresh objects takes a core for minutes,
	# in the middle of the kernel build that follows
	$GIT config gc.auto 0
	# Debian's tarball ends its .gitignore with a block that ignores every
	# top-level path ("/*"): new files would never show in git status nor be
	# caught by export-check. The base commit drops that block, and only it.
	sed -i '/^# Debian packaging: ignore everything/,/^!\/debian\/$/d' "$TREE/.gitignore"
	sed -i '${/^#$/d}' "$TREE/.gitignore"
	$GIT add -A -f .
	# Fixed identity and date: the base commit id is the same on every machine.
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
	GIT_AUTHOR_NAME=base GIT_AUTHOR_EMAIL=base@localhost \
	GIT_COMMITTER_NAME=base GIT_COMMITTER_EMAIL=base@localhost \
		$GIT -c commit.gpgsign=false commit -q -m "base: $PACKAGE $VERSION"
	$GIT tag base
	$GIT rev-parse base > "$TREE/.git/base-version-$VERSION"
}

if [ -d "$TREE/.git" ] && [ -f "$TREE/.git/base-version-$VERSION" ]; then
	if [ "${FORCE:-0}" != 1 ]; then
		sh "$TOP/scripts/export.sh" --check >/dev/null 2>&1 ||
			die "build/linux holds work that patches/ lacks: make export first (or FORCE=1 to drop it)"
	fi
	say "reusing the base in $TREE"
	$GIT checkout -q -f -B work base
	$GIT clean -q -fdx -e /.git
else
	make_base
fi

$GIT config rebase.updateRefs true
$GIT for-each-ref --format='%(refname)' refs/heads/topic/ |
	while read -r ref; do $GIT update-ref -d "$ref"; done
for t in $(topics_in_series); do
	for p in $(patches_in_series | grep "^$t/"); do
		$GIT am -q --keep-cr --whitespace=nowarn "$TOP/patches/$p" ||
			{ $GIT am --abort; die "$p does not apply to $VERSION"; }
	done
	$GIT branch -f "topic/$t" HEAD
done
say "$TREE: base + $($GIT rev-list --count base..HEAD) patches in $(topics_in_series | wc -l) topics"

#!/bin/sh
# make export: write patches/ from the commits base..HEAD of build/linux, one
# directory per topic series. A topic is the commits up to and including the
# branch topic/NN-name (make tree creates these branches; rebase.updateRefs
# keeps them across rebases), after the previous topic's: patches/NN-name/
# holds its git format-patch files numbered within it, its quilt "series"
# and 0000-cover-letter.patch, made from the hand-written cover-letter.txt
# there (first line: the subject; then the blurb). patches/series lists every
# patch in order, for quilt push -a.
# make export-check (--check): exit 1 if build/linux holds uncommitted changes
# or commits whose export differs from patches/.
set -eu
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || { [ "${1:-}" = --check ] && exit 0; die "no $TREE (make tree)"; }
GIT="git -C $TREE"
VERSION=$(sed -n 's/^VERSION=//p' "$TOP/BASE")

# topics: "COMMIT NAME" per topic branch, in the order of base..HEAD
topics() {
	$GIT for-each-ref --format='%(objectname) %(refname:lstrip=3)' 'refs/heads/topic/' |
	while read -r c name; do
		pos=$($GIT rev-list --count "base..$c")
		$GIT merge-base --is-ancestor "$c" HEAD ||
			die "topic/$name is not on HEAD (rebase with --update-refs)"
		echo "$pos $c $name"
	done | sort -n | cut -d' ' -f2-
}

# export_to DIR: the series as git format-patch writes it, reproducibly.
export_to() {
	list=$(topics)
	[ -n "$list" ] || die "build/linux has no topic/NN-name branches (make tree)"
	last=$(echo "$list" | tail -n 1 | cut -d' ' -f1)
	[ "$last" = "$($GIT rev-parse HEAD)" ] ||
		die "commits after topic/$(echo "$list" | tail -n 1 | cut -d' ' -f2): move that branch to HEAD (git branch -f topic/NAME HEAD) or start a new topic (git branch topic/NN-name HEAD and patches/NN-name/cover-letter.txt)"
	mkdir -p "$1"
	{
		echo "# sched/deadline topic series on $VERSION, in order"
		echo "# applied in this order by: make tree (git am) or quilt push -a"
	} > "$1/series"
	prev=base
	echo "$list" | while read -r c name; do
		d=$1/$name
		text=$TOP/patches/$name/cover-letter.txt
		[ -f "$text" ] || die "patches/$name/cover-letter.txt is missing (subject line, then the blurb)"
		mkdir -p "$d"
		$GIT -c core.abbrev=12 format-patch -q --zero-commit --no-signature \
			-o "$d" "$prev..$c"
		# the cover letter: format-patch's, with the subject and blurb of
		# cover-letter.txt and the date of the topic's last commit (not
		# today's), so that the export is reproducible; base-commit and the
		# earlier topics' patches (prerequisite-patch-id) at its end
		$GIT -c core.abbrev=12 format-patch -q --zero-commit --no-signature \
			--cover-letter --base=base -o "$d/.cover" "$prev..$c"
		python3 - "$d/.cover/0000-cover-letter.patch" "$text" \
			"$($GIT log -1 --date=rfc2822 --format=%ad "$c")" > "$d/0000-cover-letter.patch" <<-'PY'
		import sys
		cover, text, date = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
		subject, _, blurb = text.partition('\n')
		out = []
		for line in cover.split('\n'):
		    if line.startswith('Date: '):
		        line = 'Date: ' + date
		    out.append(line)
		cover = '\n'.join(out).replace('*** SUBJECT HERE ***', subject)
		sys.stdout.write(cover.replace('*** BLURB HERE ***', blurb.strip('\n')))
		PY
		rm -rf "$d/.cover"
		{
			echo "# $name: topic series on $VERSION; apply after the topics before it"
			( cd "$d" && ls ) | grep '\.patch$' | grep -v '^0000-cover-letter' || true
		} > "$d/series"
		sed -n 's/^\([0-9]\)/\1/p' "$d/series" | sed "s|^|$name/|" >> "$1/series"
		cp "$text" "$d/cover-letter.txt"
		prev=$c
	done
}

# the files export writes (cover-letter.txt is hand-written, copied)
listing() {
	( cd "$1" && find . -type f | sed 's|^\./||' | sort )
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
	for n in $( (listing "$tmp"; listing "$TOP/patches") | sort -u); do
		if ! cmp -s "$tmp/$n" "$TOP/patches/$n"; then
			echo "patches/$n differs from the commits in build/linux (make export)"
			fail=1
		fi
	done
	exit $fail
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export_to "$tmp"
# replace the exported files, keep nothing stale (a topic renamed, a patch gone)
find "$TOP/patches" -mindepth 1 -maxdepth 1 ! -name README -exec rm -rf {} +
cp -a "$tmp"/. "$TOP/patches"/
say "exported $($GIT rev-list --count base..HEAD) patches in $(topics | wc -l) topics to patches/"

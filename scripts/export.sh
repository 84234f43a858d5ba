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
	# The cover letter: format-patch's, with the subject and blurb of
	# patches/cover-letter.txt and the date of the last commit (not today's),
	# so that the export is reproducible.
	if [ -f "$TOP/patches/cover-letter.txt" ]; then
		$GIT -c core.abbrev=12 format-patch -q --zero-commit --no-signature \
			--cover-letter -o "$1/.cover" base..HEAD
		python3 - "$1/.cover"/0000-cover-letter.patch "$TOP/patches/cover-letter.txt" \
			"$($GIT log -1 --date=rfc2822 --format=%ad)" > "$1/0000-cover-letter.patch" <<-'PY'
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
		rm -rf "$1/.cover"
	fi
	{
		echo "# sched/deadline series on $(sed -n 's/^VERSION=//p' "$TOP/BASE")"
		echo "# applied in this order by: make tree (git am) or quilt push -a"
		( cd "$1" && ls ) | grep '\.patch$' | grep -v '^0000-cover-letter' || true
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

rm -f "$TOP"/patches/*.patch	# not cover-letter.txt: it is written by hand
export_to "$TOP/patches"
say "exported $($GIT rev-list --count base..HEAD) patches to patches/"

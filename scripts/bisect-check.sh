#!/bin/sh
# make bisect-check: build every patch of the series on its own, for arm64 and
# x86_64, in the usual build dirs (incrementally): the kernel, and the
# kselftests where the patch touches tools/testing/selftests; as KTAP in
# build/bisect-check.log; then return build/linux to where it was.
# A patch of Documentation/ and tools/ alone leaves the kernel unchanged: its
# kernel is not built again. FROM=N starts at patch N (the patches before it
# were checked already).
set -u
. "$(dirname "$0")/lib.sh"

sh "$TOP/scripts/export.sh" --check >/dev/null ||
	die "build/linux holds work that patches/ lacks: make export first"
GIT="git -C $TREE"
head=$($GIT rev-parse --abbrev-ref HEAD)
commits=$($GIT rev-list --reverse base..HEAD)
FROM=${FROM:-1}
case $FROM in *[!0-9]* | '' | 0) die "FROM=$FROM: a patch number, 1 or more" ;; esac
commits=$(echo "$commits" | tail -n +"$FROM")
[ -n "$commits" ] || die "FROM=$FROM: the series has fewer patches"
first=$(echo "$commits" | head -n 1)
trap '$GIT checkout -q "$head"' EXIT
LOG=$BUILD/bisect-check.log
n=0
{
	echo "KTAP version 1"
	echo "1..$(( $(echo "$commits" | grep -c .) * 2 ))"
	for c in $commits; do
		$GIT checkout -q "$c"
		subject=$($GIT log -1 --format=%s "$c")
		for arch in arm64 x86_64; do
			n=$((n + 1))
			tests=
			# the kselftests scripts/selftests.sh builds, once they exist
			# (a harness patch before them has nothing of theirs to build)
			[ -d "$TREE/tools/testing/selftests/sched/deadline" ] &&
			! git -C "$TREE" diff --quiet "$c~1" "$c" -- tools/testing/selftests &&
				tests="ARCH=$arch sh $TOP/scripts/selftests.sh"
			# a patch of Documentation/ and tools/ alone leaves the kernel
			# as the previous patch built it (the first one always builds)
			kernel="ARCH=$arch BISECT=1 sh $TOP/scripts/build.sh"
			[ "$c" != "$first" ] &&
			$GIT diff --quiet "$c~1" "$c" -- . ':!Documentation' ':!tools' &&
				kernel=
			if { { [ -z "$kernel" ] || env $kernel; } &&
			     { [ -z "$tests" ] || env $tests; }; } >"$BUILD/bisect-$arch.out" 2>&1; then
				echo "ok $n $arch: $subject$([ -n "$kernel" ] || echo " # kernel as the patch before built it")"
			else
				tail -n 20 "$BUILD/bisect-$arch.out" | sed 's/^/# /'
				echo "not ok $n $arch: $subject"
			fi
		done
	done
	echo "# wb: done"
} | tee "$LOG"

#!/bin/sh
# make test: for each architecture given (default arm64 x86_64), build the
# patched kernel, the kselftests and the initramfs, boot the guest under
# -icount and run every test; run checkpatch on every patch and the tests of
# the log tools; keep it all in build/results/test-DATE-COMMIT/; then print the
# summary, whose last line is "N passed, N failed[, N skipped]".
# Exit status: non-zero on any failure, missing result or unfinished guest.
set -u
. "$(dirname "$0")/lib.sh"

ARCHES=${*:-arm64 x86_64}
t0=$(date +%s)
logs=

step() {
	s=$(date +%s)
	"$@"
	rc=$?
	say "$* : $(($(date +%s) - s)) s"
	return $rc
}

if [ ! -d "$TREE/.git" ]; then
	step sh "$TOP/scripts/tree.sh" || die "make tree failed"
elif ! sh "$TOP/scripts/export.sh" --check >/dev/null 2>&1; then
	say "note: build/linux differs from patches/: testing the tree as it is"
fi

for arch in $ARCHES; do
	export ARCH=$arch
	# every guest that boots this kernel: platforms/<arch>.sh, <arch>-*.sh
	guests=$(cd "$TOP/platforms" && ls "$arch.sh" "$arch"-*.sh 2>/dev/null | sed 's/\.sh$//')
	rm -f "$BUILD/$arch"/test-*.log
	if step sh "$TOP/scripts/build.sh" &&
	   step sh "$TOP/scripts/selftests.sh" &&
	   step sh "$TOP/scripts/initramfs.sh"; then
		for g in $guests; do
			GUEST=$g MODE=test step sh "$TOP/scripts/run.sh" >/dev/null
		done
	else
		say "$arch: build failed; its tests count as failed"
	fi
	for g in $guests; do
		logs="$logs $g=$BUILD/$arch/test-$g.log"
	done
done

step sh "$TOP/scripts/checkpatch.sh"
logs="$logs checkpatch=$BUILD/checkpatch.log"
# the host tools that read these logs, tested on stored logs
python3 "$TOP/scripts/tests/test_tools.py" > "$BUILD/tools.log" 2>&1
logs="$logs tools=$BUILD/tools.log"

# The run's results directory: the logs, the summary, the tables (make
# results turns the latest one into docs/results.md).
project=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo none)
git -C "$TOP" diff --quiet HEAD -- 2>/dev/null || project=$project-dirty
id=$(date -u +%Y%m%d-%H%M%S)-$project
RES=$BUILD/results/test-$id
# shellcheck disable=SC2086
python3 "$TOP/scripts/results.py" save "$RES" $logs
cat > "$RES/meta.txt" <<EOF
date: $(date -u '+%Y-%m-%d %H:%M UTC')
project: $project
series: $(git -C "$TREE" rev-parse --short HEAD 2>/dev/null) ($(git -C "$TREE" rev-list --count base..HEAD 2>/dev/null) patches on $(sed -n 's/^VERSION=//p' "$TOP/BASE"))
guests: $ARCHES
duration: $(($(date +%s) - t0)) s
EOF
say "total: $(($(date +%s) - t0)) s; results in ${RES#"$TOP"/}"
# shellcheck disable=SC2086
python3 "$TOP/scripts/ktap_summary.py" $logs > "$RES/summary.txt"
rc=$?
python3 "$TOP/scripts/results.py" render "$RES" || say "results.md not written"
cat "$RES/summary.txt"
exit $rc

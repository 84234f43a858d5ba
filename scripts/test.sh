#!/bin/sh
# make test: for each architecture given (default arm64 x86_64), build the
# patched kernel, the kselftests and the initramfs, boot the guest under
# -icount and run every test; run checkpatch on every patch; then print the
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

say "total: $(($(date +%s) - t0)) s"
# shellcheck disable=SC2086
python3 "$TOP/scripts/ktap_summary.py" $logs

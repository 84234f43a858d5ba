#!/bin/sh
# make kernel ARCH=arm64|x86_64: configure and build build/linux out of tree in
# build/<arch>/, with ccache. The config is allnoconfig + configs/common.config +
# configs/<arch>.config + configs/debug.config (+ $EXTRA_FRAGMENTS); every option a
# fragment asks for must survive olddefconfig, or the build stops. DEBUG=FILE
# replaces debug.config (make bench: configs/bench.config).
set -eu
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-arm64}
OUT=${OUT:-$BUILD/$ARCH}
case $ARCH in
arm64)	CROSS=aarch64-linux-gnu-; IMAGE=arch/arm64/boot/Image ;;
x86_64)	CROSS=; IMAGE=arch/x86/boot/bzImage ;;
*)	die "ARCH must be arm64 or x86_64, not $ARCH" ;;
esac
[ -f "$TREE/Makefile" ] || die "no kernel tree in $TREE (make tree)"
DEBUG=${DEBUG-$TOP/configs/debug.config}
FRAGS="$TOP/configs/common.config $TOP/configs/$ARCH.config $DEBUG ${EXTRA_FRAGMENTS:-}"

JOBS=${JOBS:-$(nproc)}
CC="${CROSS}gcc"
command -v ccache >/dev/null && CC="ccache $CC"
KMAKE="make -s -C $TREE O=$OUT ARCH=$ARCH CROSS_COMPILE=$CROSS -j$JOBS"

mkdir -p "$OUT"
# Configure only when a fragment or a Kconfig file of the tree changed: a
# fresh .config makes kbuild re-check everything, which costs a minute even
# when nothing changed (make bisect-check builds every patch).
kconfigs=$(cd "$TREE" && git ls-files -z -- '*Kconfig*' 2>/dev/null | xargs -0 cat | cksum)
stamp=$(cat $FRAGS | cksum)-$kconfigs
if [ ! -f "$OUT/.config" ] || [ "$(cat "$OUT/.config-stamp" 2>/dev/null)" != "$stamp" ]; then
	say "configuring $ARCH: allnoconfig + $(echo $FRAGS | sed "s|$TOP/||g")"
	cat $FRAGS > "$OUT/fragments.config"
	$KMAKE CC="$CC" KCONFIG_ALLCONFIG="$OUT/fragments.config" allnoconfig >/dev/null
	$KMAKE CC="$CC" olddefconfig >/dev/null
	bad=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=n) opt=${line%=n}
			grep -q "^$opt=" "$OUT/.config" && { echo "  $opt: asked n, got $(grep "^$opt=" "$OUT/.config")"; bad=1; } ;;
		CONFIG_*=*) grep -qx "$line" "$OUT/.config" ||
			{ echo "  ${line%%=*}: asked ${line#*=}, got $(grep "^${line%%=*}=" "$OUT/.config" || echo 'not set')"; bad=1; } ;;
		esac
	done <<-EOF
	$(awk -F= '/^CONFIG_/ { if (!($1 in v)) order[n++] = $1; v[$1] = $0 }
		END { for (i = 0; i < n; i++) print v[order[i]] }' "$OUT/fragments.config")
	EOF
	# (a later fragment overrides an earlier one: the last value asked counts)
	# BISECT=1 (make bisect-check): an early patch may predate an option
	[ $bad = 0 ] || [ "${BISECT:-0}" = 1 ] ||
		die "options lost in the $ARCH config (a dependency is missing)"
	echo "$stamp" > "$OUT/.config-stamp"
fi

say "building $ARCH kernel in ${OUT#$TOP/} ($JOBS jobs)"
$KMAKE CC="$CC" "${IMAGE##*/}"
$KMAKE CC="$CC" headers >/dev/null
say "$ARCH kernel: ${OUT#$TOP/}/$IMAGE"

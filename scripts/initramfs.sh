#!/bin/sh
# make initramfs ARCH=...: the guest's root file system, build/<arch>/initramfs.cpio:
# busybox, rt-tests and rt-app with their libraries (Debian packages of the
# guest's architecture), the kselftests, the workbench tools (bench/) and /init.
set -eu
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-arm64}
OUT=${OUT:-$BUILD/$ARCH}
case $ARCH in
arm64)	DEBARCH=arm64; CC=aarch64-linux-gnu-gcc ;;
x86_64)	DEBARCH=amd64; CC=gcc ;;
*)	die "ARCH must be arm64 or x86_64" ;;
esac
PKGS="busybox-static rt-tests rt-app libc6 libnuma1 libjson-c5"
DEBS=$BUILD/debs/$DEBARCH
ROOT=$OUT/initramfs-root

# Debian packages for the guest, fetched once.
mkdir -p "$DEBS"
for p in $PKGS; do
	ls "$DEBS/${p}_"*"_$DEBARCH.deb" >/dev/null 2>&1 && continue
	say "downloading $p:$DEBARCH"
	( cd "$DEBS" && apt-get download -q -o APT::Sandbox::User=root "$p:$DEBARCH" >/dev/null ) ||
		die "apt-get download $p:$DEBARCH failed (make deps adds the arm64 architecture)"
done

rm -rf "$ROOT"
mkdir -p "$ROOT"
for d in "$DEBS"/*.deb; do
	dpkg-deb -x "$d" "$ROOT"
done
rm -rf "$ROOT/usr/share" "$ROOT"/usr/lib/python3* "$ROOT"/usr/lib/*/gconv "$ROOT"/usr/lib/*/audit
mkdir -p "$ROOT/bin" "$ROOT/sbin" "$ROOT/usr/bin" "$ROOT/usr/sbin" \
	"$ROOT/dev" "$ROOT/proc" "$ROOT/sys" "$ROOT/tmp" "$ROOT/root"
mv "$ROOT/bin/busybox" "$ROOT/bin/busybox.static" 2>/dev/null || true
[ -x "$ROOT/bin/busybox.static" ] || die "no busybox in busybox-static:$DEBARCH"
mv "$ROOT/bin/busybox.static" "$ROOT/bin/busybox"
ln -sf busybox "$ROOT/bin/sh"

# Tests and tools.
[ -d "$OUT/kselftest" ] || die "no kselftests in $OUT/kselftest (make selftests)"
cp -a "$OUT/kselftest" "$ROOT/kselftest"
mkdir -p "$ROOT/wb"
for src in "$TOP"/bench/*.c; do
	[ -e "$src" ] || continue
	$CC -O2 -Wall -static -pthread -o "$ROOT/wb/$(basename "$src" .c)" "$src" -lm ||
		die "cannot build $src for $ARCH"
done
# the guest's side of the workbench: guest/init.sh is /init, the jobs it
# sources (tests, torture, bench) go to /wb/guest/
cp "$TOP/guest/init.sh" "$ROOT/init"
chmod 755 "$ROOT/init"
mkdir -p "$ROOT/wb/guest"
for job in "$TOP"/guest/*.sh; do
	[ "$job" = "$TOP/guest/init.sh" ] || cp "$job" "$ROOT/wb/guest/"
done

# Pack with the kernel's gen_init_cpio: no root needed for /dev/console,
# owner root everywhere, reproducible timestamps.
GEN=$BUILD/gen_init_cpio
[ -x "$GEN" ] || cc -O2 -o "$GEN" "$TREE/usr/gen_init_cpio.c"
SPEC=$OUT/initramfs.spec
{
	echo "nod /dev/console 0600 0 0 c 5 1"
	( cd "$ROOT" && find . -mindepth 1 | sort ) | while IFS= read -r p; do
		path=${p#.}
		mode=$(stat -c %a "$ROOT$path")
		if [ -L "$ROOT$path" ]; then
			echo "slink $path $(readlink "$ROOT$path") $mode 0 0"
		elif [ -d "$ROOT$path" ]; then
			echo "dir $path $mode 0 0"
		else
			echo "file $path $ROOT$path $mode 0 0"
		fi
	done
} > "$SPEC"
"$GEN" -t 0 "$SPEC" > "$OUT/initramfs.cpio"
say "${OUT#$TOP/}/initramfs.cpio: $(du -h "$OUT/initramfs.cpio" | cut -f1)"

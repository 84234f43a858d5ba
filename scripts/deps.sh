#!/bin/sh
# Install what building and testing need, from Debian's archive only.
# Host tools come from amd64 packages; the arm64 guest's user space comes from
# arm64 packages fetched with apt-get download (scripts/initramfs.sh).
set -eu
. "$(dirname "$0")/lib.sh"
load_base

HOST_PKGS="$PACKAGE=$VERSION make gcc libc6-dev flex bison bc libelf-dev libssl-dev
	ccache cpio xz-utils rsync kmod perl python3 git quilt device-tree-compiler
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	qemu-system-arm qemu-system-x86 seabios patch
	busybox-static rt-tests rt-app python3-matplotlib"

missing=
for p in $HOST_PKGS; do
	name=${p%%=*}
	want=${p#*=}
	have=$(dpkg-query -W -f '${Status} ${Version}' "$name" 2>/dev/null || true)
	case "$have" in
	"install ok installed "*)
		[ "$want" = "$p" ] || [ "${have##* }" = "$want" ] || missing="$missing $p" ;;
	*) missing="$missing $p" ;;
	esac
done
# the guest's arm64 packages must be downloadable (apt-get download)
arm64=yes
dpkg --print-foreign-architectures | grep -qx arm64 || arm64=no
if [ $arm64 = yes ] && ! apt-cache show busybox-static:arm64 >/dev/null 2>&1; then
	arm64=lists
fi

if [ -z "$missing" ] && [ $arm64 = yes ]; then
	say "all dependencies present"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "missing:$missing; run as root or install them by hand"
if [ $arm64 = no ]; then
	say "adding arm64 as a foreign architecture (for the guest's packages)"
	dpkg --add-architecture arm64
fi
apt-get update -q
if [ -n "$missing" ]; then
	say "installing:$missing"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi

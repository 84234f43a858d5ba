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
	qemu-system-arm qemu-system-x86 ipxe-qemu seabios qemu-efi-aarch64
	busybox-static rt-tests rt-app"

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
arm64=yes
dpkg --print-foreign-architectures | grep -qx arm64 || arm64=no

if [ -z "$missing" ] && [ $arm64 = yes ]; then
	say "all dependencies present"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "missing:$missing; run as root or install them by hand"
if [ $arm64 = no ]; then
	say "adding arm64 as a foreign architecture (for the guest's packages)"
	dpkg --add-architecture arm64
fi
say "installing:$missing"
apt-get update -q
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing

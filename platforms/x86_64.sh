# x86_64 QEMU q35: 4 symmetric vCPUs. Sourced by scripts/run.sh.
QEMU=qemu-system-x86_64
MACHINE="-M q35 -cpu qemu64 -smp 4 -m 1G -nic none"
CONSOLE=ttyS0
IMAGE=arch/x86/boot/bzImage

platform_prepare() {
	PLATFORM_ARGS=
}
